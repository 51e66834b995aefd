"""Where discord.py finds Discord: REST base and gateway URL, overridable for tests.

discord.py 2.7 has no constructor option for either address. It builds every REST URL
from the class attribute `discord.http.Route.BASE` (webhooks and interaction callbacks
included), and `Client.connect` opens the gateway at `DiscordWebSocket.DEFAULT_GATEWAY`
(it never asks GET /gateway/bot unless sharded; after READY it follows the
`resume_gateway_url` Discord sends). Setting those two attributes before `start()` is
the least intrusive hook, and it is how `python -m bot` reaches the fake Discord that
the end-to-end tests run on 127.0.0.1.
"""

from __future__ import annotations

import discord.http
import yarl
from discord.gateway import DiscordWebSocket


def apply_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Sends REST to `api_base` (including /api/v10) and opens the gateway at `gateway_url`.

    None leaves that address as discord.py has it. Call before the client starts.
    """
    if api_base is not None:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url is not None:
        url = yarl.URL(gateway_url)
        if url.scheme not in ("ws", "wss"):
            raise ValueError(f"gateway URL must be ws:// or wss://, got {gateway_url!r}")
        # discord.py appends ?v=10&encoding=json&compress=... itself.
        DiscordWebSocket.DEFAULT_GATEWAY = url.with_query(None)
