"""Which servers this process drives: the servers of its shards.

Discord splits a bot's servers into shards by ``(guild_id >> 22) % shard_count``
and sends each server's events only to the connection of its shard. A process
that runs some of the shards (``SHARD_COUNT`` and ``SHARD_IDS``) therefore gets
the clicks of those servers only, and must also be the only one to resume,
time and play computer turns for their tables after a start; the other
processes, on the same PostgreSQL database, leave them alone.

Without ``SHARD_COUNT`` one process runs every shard Discord recommends and
owns every server.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard a server belongs to (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardOwnership:
    shard_count: int | None = None
    """None: Discord's recommended count, every shard in this process."""
    shard_ids: tuple[int, ...] | None = None
    """None: every shard of ``shard_count``."""

    def __post_init__(self) -> None:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("shard ids need a shard count")
            if not self.shard_ids or any(not 0 <= i < self.shard_count for i in self.shard_ids):
                raise ValueError(f"shard ids must be among 0..{self.shard_count - 1}, not {self.shard_ids}")

    @property
    def owns_everything(self) -> bool:
        return self.shard_count is None or self.shard_ids is None

    def owns(self, guild_id: int) -> bool:
        """Whether this process drives the tables of this server."""
        if self.owns_everything:
            return True
        assert self.shard_count is not None and self.shard_ids is not None
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def __str__(self) -> str:
        if self.shard_count is None:
            return "every shard"
        if self.shard_ids is None:
            return f"all {self.shard_count} shards"
        return f"shard{'s' if len(self.shard_ids) > 1 else ''} {', '.join(map(str, self.shard_ids))} of {self.shard_count}"
