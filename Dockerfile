# The ordinary Tonk bot: one process, its SQLite database on a volume.
#   docker build -t tonk-bot .
#   docker run -d --name tonk --restart unless-stopped --env-file .env -v tonk-data:/data tonk-bot
# Only DISCORD_TOKEN is required in .env. The database is /data/tonk.db on the volume: it outlives
# the container, and an upgrade (build the new image, run it on the same volume) migrates it at start.
# docker-compose.yml runs this image as two shards on PostgreSQL instead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The pictures draw names in every script with the Noto fonts, shaped and laid right to left by
# Pillow's raqm layout, which loads libfribidi (README "Fonts"; .ci/run installs the same packages).
# Their versions are the base image's Debian release's.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# the package's files only (see .dockerignore): its dependencies install once, at build time
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY cogs ./cogs
COPY i18n ./i18n
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /data tonk \
    && mkdir -p /data \
    && chown tonk /data

USER 10001
ENV DATABASE_URL=sqlite+aiosqlite:////data/tonk.db \
    TONK_HEALTH_FILE=/tmp/tonk-bot.health
VOLUME ["/data"]
# healthy: the gateway connected, the database answering, the event loop writing its health file
# every 10 s (bot/metrics.py); the first minute is the start (log in, migrate, resume the tables)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
# SIGTERM (docker stop) closes the bot within seconds
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
