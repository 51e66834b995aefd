"""Discord-facing code: the `tonk` slash command group, its buttons and its embeds."""
