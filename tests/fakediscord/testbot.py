"""A tiny discord.py bot that exercises the fake: commands, views, modals, files, and rule-breaking.

It exists to prove the fake speaks Discord well enough for unmodified discord.py, and
that the fake catches what real Discord rejects. `python -m fakediscord.testbot` starts
it the way production starts (`DISCORD_TOKEN`, `DISCORD_API_BASE`, `DISCORD_GATEWAY_URL`);
`FDTEST_STATE` names a JSON file the persistent counter survives restarts in.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_response_params

from bot.endpoints import apply_endpoints

COUNTER_ID = "fd:counter"
PICK_ID = "fd:pick"
SHUFFLE_ID = "fd:shuffle"
SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")


def _button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _string_select(options: int, *, min_values: int = 1, max_values: int = 1, label: str = "opt") -> dict[str, Any]:
    return {
        "type": 3, "custom_id": "fd:bad-select", "min_values": min_values, "max_values": max_values,
        "options": [{"label": f"{label}{i}", "value": str(i)} for i in range(options)],
    }


# Payloads that real Discord answers with 400 / 50035 (or 50006), by name.
BAD_PAYLOADS: dict[str, dict[str, Any]] = {
    "long_content": {"content": "x" * 2001},
    "empty": {"content": ""},
    "big_description": {"embeds": [{"title": "t", "description": "d" * 4097}]},
    "long_title": {"embeds": [{"title": "t" * 257}]},
    "too_many_embeds": {"embeds": [{"title": str(i)} for i in range(11)]},
    "embed_total": {"embeds": [{"description": "d" * 3500}, {"description": "e" * 3500}]},
    "too_many_fields": {"embeds": [{"title": "t", "fields": [{"name": str(i), "value": "v"} for i in range(26)]}]},
    "long_field_value": {"embeds": [{"title": "t", "fields": [{"name": "n", "value": "v" * 1025}]}]},
    "long_footer": {"embeds": [{"title": "t", "footer": {"text": "f" * 2049}}]},
    "long_author": {"embeds": [{"title": "t", "author": {"name": "a" * 257}}]},
    "too_many_rows": {"components": [_row(_button(f"r{i}")) for i in range(6)]},
    "wide_row": {"components": [_row(*[_button(f"b{i}") for i in range(6)])]},
    "select_not_alone": {"components": [_row(_string_select(3), _button("beside"))]},
    "long_custom_id": {"components": [_row(_button("c" * 101))]},
    "duplicate_custom_id": {"components": [_row(_button("same"), _button("same"))]},
    "long_label": {"components": [_row(_button("ok", "L" * 81))]},
    "no_select_options": {"components": [_row(_string_select(0))]},
    "too_many_options": {"components": [_row(_string_select(26))]},
    "bad_min_max": {"components": [_row(_string_select(5, min_values=3, max_values=2))]},
    "max_over_options": {"components": [_row(_string_select(3, max_values=5))]},
    "long_option_label": {"components": [_row(_string_select(2, label="o" * 101))]},
}


class CounterView(discord.ui.View):
    """Persistent: custom_ids are fixed, the count lives in the bot's state file."""

    def __init__(self, bot: TestBot) -> None:
        super().__init__(timeout=None)
        self.bot = bot
        self.count.label = f"Count: {bot.state.get('count', 0)}"

    @discord.ui.button(label="Count: 0", style=discord.ButtonStyle.primary, custom_id=COUNTER_ID)
    async def count(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.bot.state["count"] = self.bot.state.get("count", 0) + 1
        self.bot.save_state()
        await interaction.response.edit_message(content=f"Counted by {interaction.user.name}", view=CounterView(self.bot))

    @discord.ui.button(label="Shuffle", style=discord.ButtonStyle.secondary, custom_id=SHUFFLE_ID)
    async def shuffle(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # type 6: acknowledged, message unchanged for now
        await interaction.edit_original_response(content=f"Shuffled by {interaction.user.name}")

    @discord.ui.select(custom_id=PICK_ID, placeholder="Pick suits", min_values=1, max_values=2,
                       options=[discord.SelectOption(label=s, value=s.lower()) for s in SUITS])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"{interaction.user.name} picked {', '.join(select.values)}",
                                                ephemeral=True)


class RevealView(discord.ui.View):
    """Not persistent: bound to the ephemeral message it was sent with."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Reveal", style=discord.ButtonStyle.secondary, custom_id="fd:reveal")
    async def reveal(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        await interaction.response.edit_message(content=f"Revealed to {interaction.user.name}", view=self)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    thoughts = discord.ui.TextInput(label="Your thoughts", custom_id="fd:thoughts", max_length=200)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks for: {self.thoughts.value}", ephemeral=True)


class Fd(commands.GroupCog, group_name="fd", group_description="Fake Discord self-test"):
    limits = app_commands.Group(name="limits", description="Break Discord's limits on purpose")

    def __init__(self, bot: TestBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Say hello with an embed")
    async def hello(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Hello", description=f"Welcome, {interaction.user.display_name}")
        embed.add_field(name="Channel", value=f"#{interaction.channel.name}")
        embed.set_footer(text="fake discord")
        await interaction.response.send_message(f"Hello, {interaction.user.name}!", embed=embed)

    @app_commands.command(description="Something only you can see")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Psst {interaction.user.name}", view=RevealView(), ephemeral=True)

    @app_commands.command(description="A persistent counter and a select")
    async def counter(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Counter", view=CounterView(self.bot))

    @app_commands.command(description="Echo every option type")
    @app_commands.describe(text="Some text", number="A whole number", flag="Yes or no")
    @app_commands.choices(preset=[app_commands.Choice(name="Standard", value="standard"),
                                  app_commands.Choice(name="Fast", value="fast")])
    async def echo(
        self,
        interaction: discord.Interaction,
        text: str,
        number: app_commands.Range[int, 0, 100],
        flag: bool,
        ratio: float,
        member: discord.Member,
        channel: discord.TextChannel,
        role: discord.Role,
        preset: app_commands.Choice[str],
        upload: discord.Attachment | None = None,
    ) -> None:
        data = await upload.read() if upload else b""
        parts = [
            f"text={text}", f"number={number}", f"flag={flag}", f"ratio={ratio}", f"member={member.name}",
            f"member_manage={member.guild_permissions.manage_guild}", f"channel={channel.name}",
            f"role={role.name}", f"preset={preset.value}",
            f"upload={upload.filename}:{data.decode()}" if upload else "upload=none",
            f"caller_manage={interaction.permissions.manage_guild}",
        ]
        await interaction.response.send_message(" ".join(parts))

    @app_commands.command(description="Deferred, then edited when the test says so")
    async def slow(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await self.bot.gate("slow")
        await interaction.edit_original_response(content="Done thinking")

    @app_commands.command(description="A reply and two followups")
    async def followups(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        await interaction.followup.send("second")
        await interaction.followup.send("for your eyes only", ephemeral=True)

    @app_commands.command(description="Ephemeral defer filled by a followup")
    async def quiet(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("filled quietly")

    @app_commands.command(description="Send you a direct message")
    async def dm(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Check your DMs", ephemeral=True)
        await interaction.user.send("psst, in private")

    @app_commands.command(description="Upload a file")
    async def file(self, interaction: discord.Interaction) -> None:
        hand = discord.File(io.BytesIO(b"10h Jc Qs Ks Ad"), filename="hand.txt")
        await interaction.response.send_message("Your hand", file=hand)

    @app_commands.command(description="Open a modal")
    async def feedback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(FeedbackModal())

    @app_commands.command(description="Autocomplete a suit")
    async def suit(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"suit={name}")

    @suit.autocomplete("name")
    async def suit_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=s, value=s.lower()) for s in SUITS if s.lower().startswith(current.lower())]

    @app_commands.command(description="Post a channel message and edit it many times")
    async def edits(self, interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("editing", ephemeral=True)
        message = await interaction.channel.send("edit 0")
        for i in range(1, count + 1):
            await message.edit(content=f"edit {i}")
        await interaction.followup.send(f"edited {count} times", ephemeral=True)

    @app_commands.command(description="Answer only after the gate opens (late ack)")
    async def late(self, interaction: discord.Interaction) -> None:
        await self.bot.gate("late")
        try:
            await interaction.response.send_message("too late?")
        except discord.HTTPException as error:
            self.bot.errors.append(error)

    @app_commands.command(description="Defer, then edit after the gate opens (token expiry)")
    async def linger(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await self.bot.gate("linger")
        try:
            await interaction.edit_original_response(content="still here")
        except discord.HTTPException as error:
            self.bot.errors.append(error)
        try:
            await interaction.followup.send("and a followup")
        except discord.HTTPException as error:
            self.bot.errors.append(error)

    @app_commands.command(description="Acknowledge twice, as a second process would")
    async def double(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first answer")
        try:
            await raw_callback(interaction, 4, {"content": "second answer"})
        except discord.HTTPException as error:
            self.bot.errors.append(error)

    @limits.command(name="break", description="Send a payload Discord rejects")
    @app_commands.describe(what="Which limit", where="Initial response, channel message or followup")
    @app_commands.choices(where=[app_commands.Choice(name=w, value=w) for w in ("response", "channel", "followup")])
    async def break_(self, interaction: discord.Interaction, what: str, where: str = "response") -> None:
        payload = BAD_PAYLOADS[what]
        try:
            if where == "response":
                await raw_callback(interaction, 4, payload)
            elif where == "channel":
                await interaction.response.defer(ephemeral=True)
                route = Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
                await self.bot.http.request(route, json=payload)
            else:
                await interaction.response.defer(ephemeral=True)
                route = Route("POST", "/webhooks/{webhook_id}/{webhook_token}",
                              webhook_id=interaction.application_id, webhook_token=interaction.token)
                await async_context.get().request(route, interaction._session, payload=payload, params={"wait": 1})
        except discord.HTTPException as error:
            self.bot.errors.append(error)
            text = f"rejected: {error.code}"
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(name="fdadmin", description="Only for server managers")
@app_commands.default_permissions(manage_guild=True)
async def fdadmin(interaction: discord.Interaction) -> None:
    """Top level: Discord applies default_member_permissions to top-level commands only."""
    await interaction.response.send_message("admin ok", ephemeral=True)


async def raw_callback(interaction: discord.Interaction, kind: int, data: dict[str, Any]) -> Any:
    """An interaction callback with a raw payload, bypassing discord.py's own bookkeeping and checks."""
    return await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session,
        params=interaction_response_params(kind, data),
    )


class TestBot(commands.Bot):
    """Syncs globally, or to `dev_guild_id` when given, like the production bot plans to."""

    __test__ = False  # not a pytest test class

    def __init__(self, *, dev_guild_id: int | None = None, state_path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0.1)
        self.dev_guild_id = dev_guild_id
        self.state_path = Path(state_path) if state_path else None
        self.state: dict[str, Any] = json.loads(self.state_path.read_text()) if self.state_path and self.state_path.exists() else {}
        self.errors: list[discord.HTTPException] = []
        self.gates: dict[str, asyncio.Event] = {}
        self.waiting: set[str] = set()

    def save_state(self) -> None:
        if self.state_path:
            self.state_path.write_text(json.dumps(self.state))

    async def gate(self, name: str) -> None:
        """Blocks a command until the test calls `open_gate(name)`."""
        self.waiting.add(name)
        await self.gates.setdefault(name, asyncio.Event()).wait()

    def open_gate(self, name: str) -> None:
        self.gates.setdefault(name, asyncio.Event()).set()

    async def setup_hook(self) -> None:
        await self.add_cog(Fd(self))
        self.tree.add_command(fdadmin)
        self.add_view(CounterView(self))
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()


def main() -> None:
    apply_endpoints(os.environ.get("DISCORD_API_BASE"), os.environ.get("DISCORD_GATEWAY_URL"))
    token = os.environ["DISCORD_TOKEN"]
    dev_guild = os.environ.get("FDTEST_DEV_GUILD")

    async def run() -> None:
        bot = TestBot(dev_guild_id=int(dev_guild) if dev_guild else None, state_path=os.environ.get("FDTEST_STATE"))
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        async with bot:
            await bot.start(token)

    discord.utils.setup_logging()
    asyncio.run(run())


if __name__ == "__main__":
    main()
