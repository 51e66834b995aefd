"""Per-route rate limit buckets that answer like Discord: headers on every reply, 429 when empty.

Routes are named as discord.py names them (`"PATCH /channels/{channel_id}/messages/{message_id}"`),
and a bucket is counted per major parameter (channel, guild, webhook), as Discord does.
A bucket can be `hidden` (no X-RateLimit headers on success, like Discord's undisclosed
sub-limits), which is the one way a well-behaved client still meets a 429.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from .model import Clock

# Approximately what Discord enforces on the routes a game bot uses most. Interaction
# callbacks are not rate limited by Discord, so they are absent here.
DISCORD_DEFAULT_LIMITS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 1.0),
    "POST /webhooks/{webhook_id}/{webhook_token}": (5, 2.0),
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
    "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": (5, 2.0),
}


@dataclass(frozen=True)
class BucketConfig:
    limit: int
    per: float
    name: str
    hidden: bool = False


@dataclass
class _Window:
    reset_at: float
    used: int = 0


@dataclass(frozen=True)
class RateLimitHit:
    """One 429 the fake served."""

    route: str
    major: str
    bucket: str
    retry_after: float
    at: float


@dataclass(frozen=True)
class Decision:
    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    bucket: str = ""


@dataclass
class RateLimiter:
    clock: Clock
    configs: dict[str, BucketConfig] = field(default_factory=dict)
    windows: dict[tuple[str, str], _Window] = field(default_factory=dict)
    hits: list[RateLimitHit] = field(default_factory=list)

    def set(self, route: str, limit: int, per: float, *, hidden: bool = False, bucket: str | None = None) -> None:
        """Limit `route` to `limit` requests per `per` seconds. Routes given the same `bucket` share it."""
        if limit < 1 or per <= 0:
            raise ValueError("a bucket needs limit >= 1 and per > 0")
        self.configs[route] = BucketConfig(limit, per, bucket or route, hidden)

    def clear(self, route: str | None = None) -> None:
        if route is None:
            self.configs.clear()
        else:
            self.configs.pop(route, None)
        self.windows.clear()

    def check(self, route: str, major: str) -> Decision:
        config = self.configs.get(route)
        if config is None:
            return Decision(True, {})
        now = self.clock.now()
        key = (config.name, major)
        window = self.windows.get(key)
        if window is None or now >= window.reset_at:
            window = self.windows[key] = _Window(reset_at=now + config.per)
        # Rounded up to the millisecond: a client that sleeps exactly this long must find the window reset.
        reset_after = math.ceil(max(window.reset_at - now, 0.0) * 1000) / 1000
        bucket_hash = hashlib.md5(config.name.encode()).hexdigest()
        headers = {
            "X-RateLimit-Limit": str(config.limit),
            "X-RateLimit-Reset": f"{self.clock.wall() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if window.used >= config.limit:
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
            headers["Retry-After"] = str(max(1, math.ceil(reset_after)))
            # discord.py treats a 429 without Via as a Cloudflare ban and gives up.
            headers["Via"] = "1.1 google"
            self.hits.append(RateLimitHit(route, major, config.name, reset_after, now))
            return Decision(False, headers, reset_after, config.name)
        window.used += 1
        headers["X-RateLimit-Remaining"] = str(config.limit - window.used)
        return Decision(True, {} if config.hidden else headers, 0.0, config.name)
