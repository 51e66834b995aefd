"""Errors the store raises on purpose.

Bad arguments (a stake of 0, payments that do not sum to zero) are plain
``ValueError``s raised before anything is written. The classes here are the
conditions a caller is expected to catch and handle.
"""


class StoreError(Exception):
    """Base class of the store's own errors."""


class StaleTableError(StoreError):
    """The table was saved by someone else since it was loaded.

    The caller should reload the table and re-apply (or refuse) the action.
    """

    def __init__(self, table_id: int, expected_version: int, stored_version: int) -> None:
        self.table_id = table_id
        self.expected_version = expected_version
        self.stored_version = stored_version
        super().__init__(
            f"Table {table_id} was changed by someone else: expected version "
            f"{expected_version}, stored version is {stored_version}. Reload it and try again."
        )


class TableNotFoundError(StoreError, LookupError):
    """No live table has this id."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(f"There is no table {table_id}.")


class TableClosedError(StoreError):
    """The table is closed; a closed table is never changed again."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(f"Table {table_id} is closed.")


class ChannelBusyError(StoreError):
    """The channel already hosts an open table (one open table per channel)."""

    def __init__(self, channel_id: int) -> None:
        self.channel_id = channel_id
        super().__init__(f"Channel {channel_id} already has an open table.")


class SchemaTooNewError(StoreError):
    """The database was migrated by a newer version of the bot than this one."""

    def __init__(self, found: int | str, supported: int | str) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"The database schema is version {found}, but this code only knows "
            f"versions up to {supported}. Upgrade the bot before opening this database."
        )


class DatabaseStartupError(StoreError):
    """The database cannot be opened; the message is one line naming what and what to do.

    Raised by ``open_database`` before anything in the database was changed.
    """
