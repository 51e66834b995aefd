"""`python -m i18n extract | update | check | stats`: keep the catalogues in step with the code.

- `extract` writes `i18n/locales/tonk.pot` from every `t()`, `tn()`, `tc()`, `tnc()` and `N_()`
  in engine/, bot/, cogs/ and i18n/ (what `pybabel extract -F i18n/babel.cfg` would write);
- `update [codes]` merges it into every shipped catalogue (or only those named) (creating one that is missing, with its
  language's plural forms), keeping what translators wrote;
- `check` exits 1, naming them, when the template is stale or a catalogue lacks a message;
- `stats` prints how much of each catalogue is translated;
- `todo CODE` prints the messages a catalogue lacks as JSON, and `fill CODE FILE.json` writes a
  translator's answers (the same rows with "string", or "strings" for the plural forms) into it.
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po, write_po

from . import CATALOGUES, DOMAIN, LOCALES_DIR

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "bot", "cogs", "i18n")
KEYWORDS = parse_keywords(["t", "tn:1,2", "tc:1c,2", "tnc:1c,2,3", "N_"])
TEMPLATE = LOCALES_DIR / f"{DOMAIN}.pot"
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)  # no churn in the files from the clock


def template() -> Catalog:
    cat = Catalog(project="tonk-bot", domain=DOMAIN, creation_date=FIXED_DATE, revision_date=FIXED_DATE,
                  msgid_bugs_address="", copyright_holder="", fuzzy=False)
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(ROOT / source), method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            cat.add(message, None, [(f"{source}/{filename}", lineno)], auto_comments=comments, context=context)
    return cat


def dump(cat: Catalog, **kwargs) -> bytes:
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, omit_header=False, **kwargs)
    return buf.getvalue()


def catalogue_path(code: str) -> Path:
    return LOCALES_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(path: Path, locale: str | None = None) -> Catalog:
    with open(path, "rb") as fh:
        return read_po(fh, locale=locale)


def update(tpl: Catalog, only: list[str] | None = None) -> None:
    for code in CATALOGUES:
        if code == "en" or (only and code not in only):
            continue
        path = catalogue_path(code)
        if path.exists():
            cat = read(path, code)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            cat = Catalog(locale=code, domain=DOMAIN, project="tonk-bot", creation_date=FIXED_DATE,
                          revision_date=FIXED_DATE, fuzzy=False)
        cat.update(tpl, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
        cat.revision_date = FIXED_DATE
        cat.fuzzy = False
        path.write_bytes(dump(cat, ignore_obsolete=True, include_previous=False))


def missing(code: str, tpl: Catalog) -> list[str]:
    cat = read(catalogue_path(code), code)
    out = []
    for m in tpl:
        if not m.id:
            continue
        got = cat.get(m.id, context=m.context)
        strings = () if got is None else (got.string if isinstance(got.string, (list, tuple)) else (got.string,))
        if got is None or got.fuzzy or not strings or not all(strings):
            out.append(m.id[0] if isinstance(m.id, (list, tuple)) else m.id)
    return out


def todo(code: str, tpl: Catalog) -> list[dict]:
    """The messages `code` lacks, as JSON-ready rows a translator fills in (`fill`)."""
    lacking = set(missing(code, tpl))
    rows = []
    for m in tpl:
        ids = tuple(m.id) if isinstance(m.id, (list, tuple)) else (m.id,)
        if m.id and ids[0] in lacking:
            row = {"context": m.context, "id": ids[0]}
            if len(ids) > 1:
                row["plural"] = ids[1]
                row["forms"] = read(catalogue_path(code), code).num_plurals
            if m.auto_comments:
                row["note"] = " ".join(m.auto_comments)
            if m.locations:
                row["where"] = "%s:%s" % m.locations[0]
            rows.append(row)
    return rows


def fill(code: str, rows: list[dict]) -> int:
    """Write translators' rows ({"context", "id", "string"} or {"context", "id", "strings": [...]})
    into the catalogue of `code`; returns how many were written."""
    path = catalogue_path(code)
    cat = read(path, code)
    written = 0
    for row in rows:
        key = row["id"]
        found = None
        for m in cat:
            ids = tuple(m.id) if isinstance(m.id, (list, tuple)) else (m.id,)
            if ids[0] == key and m.context == row.get("context"):
                found = m
                break
        if found is None or found.pluralizable != ("strings" in row):
            continue  # a row for a message the code no longer has, or one whose shape changed
        if "strings" in row:
            found.string = tuple(row["strings"])
        else:
            found.string = row["string"]
        found.flags.discard("fuzzy")
        written += 1
    path.write_bytes(dump(cat, ignore_obsolete=True, include_previous=False))
    return written


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "fill":  # python -m i18n fill de rows.json
        import json

        rows = json.loads(Path(argv[2]).read_text(encoding="utf-8"))
        print(f"i18n: {fill(argv[1], rows)} of {len(rows)} rows written to {argv[1]}")
        return 0
    tpl = template()
    if command == "todo":  # python -m i18n todo de > rows.json
        import json

        print(json.dumps(todo(argv[1], tpl), ensure_ascii=False, indent=1))
        return 0
    if command == "extract":
        TEMPLATE.write_bytes(dump(tpl))
        print(f"i18n: {len(tpl)} messages in {TEMPLATE.relative_to(ROOT)}")
        return 0
    if command == "update":  # `update de pl`: only those catalogues (translators working side by side)
        only = argv[1:]
        if not only:
            TEMPLATE.write_bytes(dump(tpl))
        update(tpl, only)
        print(f"i18n: {len(tpl)} messages merged into {len(only) or len(CATALOGUES) - 1} catalogues")
        return 0
    if command in ("check", "stats"):
        bad = 0
        if command == "check" and (not TEMPLATE.exists() or TEMPLATE.read_bytes() != dump(tpl)):
            print("i18n: the template is stale: run python -m i18n update")
            bad = 1
        for code in CATALOGUES:
            if code == "en":
                continue
            if not catalogue_path(code).exists():
                print(f"i18n: {code}: no catalogue")
                bad = 1
                continue
            lacking = missing(code, tpl)
            if command == "stats" or lacking:
                print(f"i18n: {code}: {len(tpl) - len(lacking)}/{len(tpl)} translated"
                      + (f"; first missing: {lacking[0]!r}" if lacking else ""))
            bad |= bool(lacking) and command == "check"
        return bad
    print("usage: python -m i18n extract | update | check | stats", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
