"""Discord's documented payload limits, checked the way Discord checks them.

A failed check becomes HTTP 400 with code 50035 "Invalid Form Body" and Discord's
nested `errors` object, e.g. {"embeds": {"0": {"title": {"_errors": [...]}}}}, so
discord.py raises the same HTTPException text a real bot would log.
"""

from __future__ import annotations

import re
from typing import Any

from .model import FLAG_COMPONENTS_V2

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_AUTHOR = 256
MAX_EMBED_TOTAL = 6000
MAX_ACTION_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_COMPONENTS = 25
MAX_COMPONENTS_V2 = 40
MAX_TEXT_DISPLAY_TOTAL = 4000
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_MODAL_TITLE = 45
MAX_CHOICES = 25
MAX_COMMAND_TOTAL = 8000  # a command's names, descriptions, choices, each at its longest localisation
LOCALES = frozenset((
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
    "zh-TW", "ko", "ar", "he"))
"""The locales Discord accepts in `*_localizations` (its AvailableLocalesEnum)."""

BUTTON, STRING_SELECT, TEXT_INPUT = 2, 3, 4
AUTO_SELECTS = (5, 6, 7, 8)  # user, role, mentionable, channel
ACTION_ROW, SECTION, TEXT_DISPLAY, THUMBNAIL, CONTAINER, LABEL = 1, 9, 10, 11, 17, 18
LINK_STYLE, PREMIUM_STYLE = 5, 6

COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


class FormErrors:
    """Collects errors under their field paths, in Discord's response shape."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: tuple[Any, ...], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        where = ".".join(str(p) for p in path) or "<root>"
        self.flat.append(f"{where}: {message} ({code})")

    def max_length(self, path: tuple[Any, ...], value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length_between(self, path: tuple[Any, ...], value: Any, low: int, high: int) -> None:
        if value is None or not (low <= len(value) <= high):
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def __bool__(self) -> bool:
        return bool(self.flat)

    def body(self) -> dict[str, Any]:
        return {"message": "Invalid Form Body", "code": 50035, "errors": self.tree}

    def summary(self) -> str:
        return "; ".join(self.flat)


def check_message(payload: dict[str, Any], errors: FormErrors, *, flags: int = 0) -> None:
    """Checks the fields present in a create/edit payload (absent fields are not checked)."""
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(("content",), "BASE_TYPE_STRING", "Must be a string.")
        else:
            errors.max_length(("content",), content, MAX_CONTENT)
            if v2 and content:
                errors.add(("content",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                           "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
    embeds = payload.get("embeds")
    if embeds:
        if v2:
            errors.add(("embeds",), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                       "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
        check_embeds(embeds, errors)
    components = payload.get("components")
    if components:
        if v2:
            check_components_v2(components, errors)
        else:
            check_action_rows(components, errors)


def check_embeds(embeds: list[dict[str, Any]], errors: FormErrors) -> None:
    errors.max_length(("embeds",), embeds, MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        path = ("embeds", i)
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        errors.max_length((*path, "title"), title, MAX_EMBED_TITLE)
        errors.max_length((*path, "description"), description, MAX_EMBED_DESCRIPTION)
        errors.max_length((*path, "footer", "text"), footer, MAX_FOOTER)
        errors.max_length((*path, "author", "name"), author, MAX_AUTHOR)
        total += len(title) + len(description) + len(footer) + len(author)
        fields = embed.get("fields") or []
        errors.max_length((*path, "fields"), fields, MAX_EMBED_FIELDS)
        for j, f in enumerate(fields):
            fpath = (*path, "fields", j)
            name, value = f.get("name"), f.get("value")
            for key, text, limit in (("name", name, MAX_FIELD_NAME), ("value", value, MAX_FIELD_VALUE)):
                if not text:
                    errors.add((*fpath, key), "BASE_TYPE_REQUIRED", "This field is required")
                else:
                    errors.max_length((*fpath, key), text, limit)
            total += len(name or "") + len(value or "")
    if total > MAX_EMBED_TOTAL:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}")


def check_action_rows(rows: list[dict[str, Any]], errors: FormErrors) -> None:
    errors.max_length(("components",), rows, MAX_ACTION_ROWS)
    seen: set[str] = set()
    count = 0
    for i, row in enumerate(rows):
        path = ("components", i)
        if row.get("type") != ACTION_ROW:
            errors.add((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
            continue
        children = row.get("components") or []
        errors.length_between((*path, "components"), children, 1, MAX_ROW_WIDTH)
        has_select = any(c.get("type") in (STRING_SELECT, *AUTO_SELECTS, TEXT_INPUT) for c in children)
        if has_select and len(children) > 1:
            errors.add((*path, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                       "The specified component exceeds the maximum width")
        for j, child in enumerate(children):
            count += 1
            check_interactive(child, (*path, "components", j), errors, seen)
    if count > MAX_COMPONENTS:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENTS} or fewer in length.")


def check_components_v2(components: list[dict[str, Any]], errors: FormErrors) -> None:
    """Layout components: only the counts, ids and text totals that bots commonly hit."""
    seen: set[str] = set()
    count = 0
    text_total = 0

    def visit(items: list[dict[str, Any]], path: tuple[Any, ...]) -> None:
        nonlocal count, text_total
        for i, item in enumerate(items):
            here = (*path, i)
            count += 1
            kind = item.get("type")
            if kind in (BUTTON, STRING_SELECT, *AUTO_SELECTS):
                check_interactive(item, here, errors, seen)
            elif kind == TEXT_DISPLAY:
                text_total += len(item.get("content") or "")
            if kind == ACTION_ROW:
                errors.length_between((*here, "components"), item.get("components") or [], 1, MAX_ROW_WIDTH)
            if item.get("components"):
                visit(item["components"], (*here, "components"))
            accessory = item.get("accessory")
            if accessory:
                count += 1
                if accessory.get("type") == BUTTON:
                    check_interactive(accessory, (*here, "accessory"), errors, seen)

    visit(components, ("components",))
    if count > MAX_COMPONENTS_V2:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENTS_V2} or fewer in length.")
    if text_total > MAX_TEXT_DISPLAY_TOTAL:
        errors.add(("components",), "MAX_TEXT_DISPLAY_CONTENT_LENGTH_EXCEEDED",
                   f"Text display content exceeds maximum of {MAX_TEXT_DISPLAY_TOTAL}")


def check_interactive(item: dict[str, Any], path: tuple[Any, ...], errors: FormErrors, seen: set[str]) -> None:
    kind = item.get("type")
    custom_id = item.get("custom_id")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not custom_id:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            errors.max_length((*path, "custom_id"), custom_id, MAX_CUSTOM_ID)
            if custom_id in seen:
                errors.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                           "Component custom id cannot be duplicated")
            seen.add(custom_id)
    if kind == BUTTON:
        style = item.get("style")
        if style == LINK_STYLE:
            if not item.get("url"):
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if custom_id is not None:
                errors.add((*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                           "A custom id cannot be specified for link buttons")
        elif style != PREMIUM_STYLE:
            if custom_id is None:
                errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
            if style not in (1, 2, 3, 4):
                errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6}.")
        if not item.get("label") and not item.get("emoji") and style != PREMIUM_STYLE:
            errors.add((*path, "label"), "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                       "A label or an emoji is required")
        errors.max_length((*path, "label"), item.get("label"), MAX_BUTTON_LABEL)
    elif kind in (STRING_SELECT, *AUTO_SELECTS):
        if custom_id is None:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        errors.max_length((*path, "placeholder"), item.get("placeholder"), MAX_PLACEHOLDER)
        min_values = item.get("min_values", 1)
        max_values = item.get("max_values", 1)
        if not 0 <= min_values <= 25:
            errors.add((*path, "min_values"), "NUMBER_TYPE_MAX", "int value should be between 0 and 25.")
        if not 1 <= max_values <= 25:
            errors.add((*path, "max_values"), "NUMBER_TYPE_MAX", "int value should be between 1 and 25.")
        if min_values > max_values:
            errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_GREATER_THAN_MAX_VALUES",
                       "min_values cannot be greater than max_values")
        if kind == STRING_SELECT:
            options = item.get("options") or []
            errors.length_between((*path, "options"), options, 1, MAX_SELECT_OPTIONS)
            if options and max_values > len(options):
                errors.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS",
                           "max_values cannot exceed the number of options")
            values: set[str] = set()
            for k, option in enumerate(options):
                opath = (*path, "options", k)
                errors.length_between((*opath, "label"), option.get("label") or "", 1, MAX_OPTION_TEXT)
                errors.length_between((*opath, "value"), option.get("value") or "", 1, MAX_OPTION_TEXT)
                errors.max_length((*opath, "description"), option.get("description"), MAX_OPTION_TEXT)
                if option.get("value") in values:
                    errors.add((*opath, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                               "Select component option values must be unique")
                values.add(option.get("value"))
            defaults = sum(1 for o in options if o.get("default"))
            if defaults > max_values:
                errors.add((*path, "options"), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
                           "Too many default options for max_values")


def check_modal(data: dict[str, Any], errors: FormErrors) -> None:
    errors.length_between(("data", "title"), data.get("title") or "", 1, MAX_MODAL_TITLE)
    errors.length_between(("data", "custom_id"), data.get("custom_id") or "", 1, MAX_CUSTOM_ID)
    components = data.get("components") or []
    errors.length_between(("data", "components"), components, 1, 5)
    seen: set[str] = set()
    for i, top in enumerate(components):
        path = ("data", "components", i)
        inner = top.get("components") or ([top["component"]] if top.get("component") else [])
        if top.get("type") == LABEL:
            errors.length_between((*path, "label"), top.get("label") or "", 1, MAX_MODAL_TITLE)
            errors.max_length((*path, "description"), top.get("description"), 100)
        for j, item in enumerate(inner):
            ipath = (*path, "components", j)
            custom_id = item.get("custom_id") or ""
            errors.length_between((*ipath, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
            if custom_id in seen:
                errors.add((*ipath, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED",
                           "Component custom id cannot be duplicated")
            seen.add(custom_id)
            if item.get("type") == TEXT_INPUT:
                if top.get("type") == ACTION_ROW:
                    errors.length_between((*ipath, "label"), item.get("label") or "", 1, MAX_MODAL_TITLE)
                errors.max_length((*ipath, "value"), item.get("value"), 4000)
                errors.max_length((*ipath, "placeholder"), item.get("placeholder"), 100)


def check_autocomplete(data: dict[str, Any], errors: FormErrors) -> None:
    choices = data.get("choices") or []
    errors.max_length(("data", "choices"), choices, MAX_CHOICES)
    for i, choice in enumerate(choices):
        errors.length_between(("data", "choices", i, "name"), choice.get("name") or "", 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            errors.max_length(("data", "choices", i, "value"), value, 100)


def check_localizations(path: tuple[Any, ...], node: dict[str, Any], field: str, low: int, high: int,
                        errors: FormErrors) -> None:
    """A `name_localizations` / `description_localizations`: Discord's locales, each text low..high long."""
    for locale, text in (node.get(f"{field}_localizations") or {}).items():
        if locale not in LOCALES:
            errors.add((*path, f"{field}_localizations", locale), "LOCALE_INVALID", "Invalid locale")
        elif not isinstance(text, str):
            errors.add((*path, f"{field}_localizations", locale), "BASE_TYPE_STRING", "Must be a string.")
        else:
            errors.length_between((*path, f"{field}_localizations", locale), text, low, high)


def _longest(node: dict[str, Any], field: str) -> int:
    texts = [str(node.get(field) or "")] + [str(t) for t in (node.get(f"{field}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def command_size(node: dict[str, Any]) -> int:
    """Discord's count against a command's 8,000 characters: every name, description and choice
    (name and value) of the command and its options, each at its longest localisation."""
    size = _longest(node, "name") + _longest(node, "description")
    for option in node.get("options") or []:
        size += command_size(option)
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size


def check_commands(commands: list[dict[str, Any]], errors: FormErrors) -> None:
    """What Discord rejects in a bulk command overwrite (PUT .../commands)."""
    names: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        name = command.get("name") or ""
        if (name, kind) in names:
            errors.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        names.add((name, kind))
        if kind == 1:
            check_command_name((i, "name"), name, errors)
            errors.length_between((i, "description"), command.get("description") or "", 1, 100)
            check_localizations((i,), command, "name", 1, 32, errors)
            check_localizations((i,), command, "description", 1, 100, errors)
            check_options(command.get("options") or [], (i, "options"), errors, depth=0)
            if command_size(command) > MAX_COMMAND_TOTAL:
                errors.add((i,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")
        else:
            errors.length_between((i, "name"), name, 1, 32)


def check_command_name(path: tuple[Any, ...], name: str, errors: FormErrors) -> None:
    if not COMMAND_NAME.match(name) or name != name.lower():
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def check_options(options: list[dict[str, Any]], path: tuple[Any, ...], errors: FormErrors, *, depth: int) -> None:
    errors.max_length(path, options, 25)
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        opath = (*path, i)
        kind = option.get("type")
        name = option.get("name") or ""
        check_command_name((*opath, "name"), name, errors)
        if name in names:
            errors.add((*opath, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
        names.add(name)
        errors.length_between((*opath, "description"), option.get("description") or "", 1, 100)
        check_localizations(opath, option, "name", 1, 32, errors)
        check_localizations(opath, option, "description", 1, 100, errors)
        if kind in (1, 2):
            if kind == 2 and depth > 0 or kind == 1 and depth > 1:
                errors.add((*opath, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands nested too deep")
            check_options(option.get("options") or [], (*opath, "options"), errors, depth=depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                errors.add((*opath, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                           "Required options must be placed before non-required options")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        errors.max_length((*opath, "choices"), choices, MAX_CHOICES)
        for j, choice in enumerate(choices):
            errors.length_between((*opath, "choices", j, "name"), choice.get("name") or "", 1, 100)
            check_localizations((*opath, "choices", j), choice, "name", 1, 100, errors)
