"""Commands to the table service as tests give them: `do` for a person's command, `play` for a play."""

from bot.commands import End, Join, Play, play_from


def do(service, table_id, person, command, *args):
    """`person` gives `command` (a class of bot.commands) with `args` at table `table_id`."""
    if command is Join:
        made = Join(person.user_id, person.name)
    elif command is End:
        made = End(person.user_id, person.name, is_admin=person.is_admin)
    else:
        made = command(person.user_id, *args)
    return service.apply(table_id, person, made)


def play(service, table_id, person, verb, value=None, moves=None):
    """`person` plays `verb` with a control's value (card codes), as a click would (a pick confirmed)."""
    return service.apply(table_id, person, Play(person.user_id, play_from(verb, value), moves=moves, confirmed=True))
