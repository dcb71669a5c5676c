"""Discord's documented limits, checked the way Discord checks them.

Every function returns a list of :class:`Problem` values (empty when the payload is
acceptable) instead of raising, so the fake can answer the bot with Discord's own
``400 Invalid Form Body`` error *and* tell the test every problem at once.

Sources: Discord developer documentation, "Message Resource" (embed limits), "Component
Reference", "Receiving and Responding" (autocomplete, modals, callback flags) and
"Application Commands" (naming, options, per-scope command counts).

>>> embed_length({"title": "Round 3", "fields": [{"name": "1.", "value": "Alice 2½"}]})
17
>>> [p.where for p in message_problems({"content": "x" * 2001})]
['content']
>>> message_problems({"content": "Standings after round 3"})
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .models import JSON, CallbackType, MessageFlag, OptionType

# Messages (Message Resource)
CONTENT_MAX = 2000
EMBEDS_PER_MESSAGE = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ATTACHMENTS_PER_MESSAGE = 10
ATTACHMENT_SIZE_MAX = 10 * 1024 * 1024
"""Upload size limit of a server without boosts (sent as ``attachment_size_limit``)."""
ATTACHMENT_DESCRIPTION_MAX = 1024
"""An attachment's description (alt text), per the attachment request structure."""

# Components (Component Reference)
ACTION_ROWS_MAX = 5
BUTTONS_PER_ROW = 5
COMPONENTS_V2_TOTAL_MAX = 40
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_TEXT_MAX = 100
TEXT_DISPLAY_TOTAL_MAX = 4000

# Interaction responses (Receiving and Responding)
AUTOCOMPLETE_CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_STRING_VALUE_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_PLACEHOLDER_MAX = 100
TEXT_INPUT_VALUE_MAX = 4000
LABEL_DESCRIPTION_MAX = 100

# Application commands
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMAND_TOTAL_CHARACTERS_MAX = 4000
STRING_OPTION_LENGTH_MAX = 6000
CHAT_INPUT_COMMANDS_MAX = 100
CONTEXT_MENU_COMMANDS_MAX = 5
SAFE_INTEGER_MAX = 2**53 - 1

INTERACTION_RESPONSE_SECONDS = 3.0
"""An interaction must get its initial callback within 3 seconds of INTERACTION_CREATE."""
INTERACTION_TOKEN_SECONDS = 15 * 60.0
"""Interaction tokens (follow-ups, edits of the original) live for 15 minutes."""

_COMMAND_NAME = re.compile(r"^[-_'\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")

CALLBACK_FLAGS_ALLOWED = (
    MessageFlag.SUPPRESS_EMBEDS
    | MessageFlag.EPHEMERAL
    | MessageFlag.IS_COMPONENTS_V2
    | MessageFlag.IS_VOICE_MESSAGE
    | MessageFlag.SUPPRESS_NOTIFICATIONS
)

ALLOWED_CALLBACKS: dict[int, frozenset[CallbackType]] = {
    1: frozenset({CallbackType.PONG}),
    2: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.MODAL,
            CallbackType.LAUNCH_ACTIVITY,
        }
    ),
    3: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
            CallbackType.MODAL,
            CallbackType.LAUNCH_ACTIVITY,
        }
    ),
    4: frozenset({CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT}),
    5: frozenset(
        {
            CallbackType.CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
            CallbackType.DEFERRED_UPDATE_MESSAGE,
            CallbackType.UPDATE_MESSAGE,
        }
    ),
}
"""Which callback types Discord accepts for each interaction type."""


@dataclass(frozen=True)
class Problem:
    """One reason Discord would reject a payload, at a JSON path inside it."""

    path: tuple[str | int, ...]
    code: str
    message: str

    @property
    def where(self) -> str:
        """The path as discord.py prints it, e.g. ``embeds.0.fields.3.value``."""
        return ".".join(str(part) for part in self.path) or "(body)"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def form_errors(problems: Iterable[Problem]) -> JSON:
    """Discord's nested ``errors`` object for a ``50035 Invalid Form Body`` answer.

    >>> form_errors([Problem(("embeds", 0, "title"), "BASE_TYPE_MAX_LENGTH", "Too long")])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'embeds': {'0': {'title': {'_errors':
        [{'code': 'BASE_TYPE_MAX_LENGTH', 'message': 'Too long'}]}}}}
    """
    root: JSON = {}
    for problem in problems:
        node = root
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return root


def _too_long(path: tuple[str | int, ...], limit: int, actual: int) -> Problem:
    return Problem(
        path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length (was {actual})."
    )


def attachment_description_problems(index: int, description: Any) -> list[Problem]:
    """An attachment's ``description`` is a string of at most 1,024 characters."""
    if description is None:
        return []
    problems: list[Problem] = []
    _check_length(
        problems, ("attachments", index, "description"), description, ATTACHMENT_DESCRIPTION_MAX
    )
    return problems


def _check_length(
    problems: list[Problem],
    path: tuple[str | int, ...],
    value: Any,
    limit: int,
    *,
    required: bool = False,
) -> None:
    if value is None or value == "":
        if required:
            problems.append(Problem(path, "BASE_TYPE_REQUIRED", "This field is required."))
        return
    if not isinstance(value, str):
        problems.append(Problem(path, "BASE_TYPE_STRING", "Must be a string."))
        return
    if len(value) > limit:
        problems.append(_too_long(path, limit, len(value)))


def embed_length(embed: JSON) -> int:
    """Characters that count towards the 6,000-character limit of a message's embeds.

    Title, description, field names and values, footer text and author name count.
    """
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    for embed_field in embed.get("fields") or []:
        total += len(embed_field.get("name") or "") + len(embed_field.get("value") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    return total


def embed_problems(embed: JSON, index: int) -> list[Problem]:
    """Problems with one embed of a message (the per-field limits)."""
    problems: list[Problem] = []
    base: tuple[str | int, ...] = ("embeds", index)
    _check_length(problems, (*base, "title"), embed.get("title"), EMBED_TITLE_MAX)
    _check_length(problems, (*base, "description"), embed.get("description"), EMBED_DESCRIPTION_MAX)
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS_MAX:
        problems.append(_too_long((*base, "fields"), EMBED_FIELDS_MAX, len(fields)))
    for i, embed_field in enumerate(fields):
        where = (*base, "fields", i)
        _check_length(
            problems, (*where, "name"), embed_field.get("name"), EMBED_FIELD_NAME_MAX, required=True
        )
        _check_length(
            problems,
            (*where, "value"),
            embed_field.get("value"),
            EMBED_FIELD_VALUE_MAX,
            required=True,
        )
    footer = embed.get("footer")
    if footer is not None:
        _check_length(
            problems, (*base, "footer", "text"), footer.get("text"), EMBED_FOOTER_MAX, required=True
        )
    author = embed.get("author")
    if author is not None:
        _check_length(
            problems, (*base, "author", "name"), author.get("name"), EMBED_AUTHOR_MAX, required=True
        )
    return problems


def _walk_components(components: Sequence[JSON]) -> Iterable[JSON]:
    for component in components:
        yield component
        yield from _walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk_components([child])


def _button_problems(button: JSON, path: tuple[str | int, ...]) -> list[Problem]:
    problems: list[Problem] = []
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        problems.append(Problem((*path, "style"), "BASE_TYPE_CHOICES", f"Bad style {style!r}."))
    if style == 5:
        if not button.get("url"):
            problems.append(Problem((*path, "url"), "BASE_TYPE_REQUIRED", "Link needs a url."))
        if button.get("custom_id"):
            problems.append(
                Problem(
                    (*path, "custom_id"), "COMPONENT_LINK_CUSTOM_ID", "Links have no custom_id."
                )
            )
    elif style != 6:
        _check_length(
            problems, (*path, "custom_id"), button.get("custom_id"), CUSTOM_ID_MAX, required=True
        )
        if button.get("url"):
            problems.append(Problem((*path, "url"), "COMPONENT_URL", "Only links have a url."))
    if style != 6 and not button.get("label") and not button.get("emoji"):
        problems.append(
            Problem((*path, "label"), "BASE_TYPE_REQUIRED", "A button needs a label or emoji.")
        )
    _check_length(problems, (*path, "label"), button.get("label"), BUTTON_LABEL_MAX)
    return problems


def _select_problems(select: JSON, path: tuple[str | int, ...]) -> list[Problem]:
    problems: list[Problem] = []
    _check_length(
        problems, (*path, "custom_id"), select.get("custom_id"), CUSTOM_ID_MAX, required=True
    )
    _check_length(
        problems, (*path, "placeholder"), select.get("placeholder"), SELECT_PLACEHOLDER_MAX
    )
    min_values = select.get("min_values", 1)
    max_values = select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        problems.append(Problem((*path, "min_values"), "NUMBER_TYPE_MAX", "Must be 0 to 25."))
    if not 1 <= max_values <= 25 or max_values < min_values:
        problems.append(
            Problem((*path, "max_values"), "NUMBER_TYPE_MAX", "Must be 1 to 25 and >= min_values.")
        )
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            problems.append(
                Problem(
                    (*path, "options"),
                    "BASE_TYPE_BAD_LENGTH",
                    f"Must be between 1 and {SELECT_OPTIONS_MAX} in length (was {len(options)}).",
                )
            )
        if max_values > len(options) > 0:
            problems.append(
                Problem((*path, "max_values"), "NUMBER_TYPE_MAX", "More than there are options.")
            )
        for i, option in enumerate(options):
            where = (*path, "options", i)
            _check_length(
                problems,
                (*where, "label"),
                option.get("label"),
                SELECT_OPTION_TEXT_MAX,
                required=True,
            )
            _check_length(
                problems,
                (*where, "value"),
                option.get("value"),
                SELECT_OPTION_TEXT_MAX,
                required=True,
            )
            _check_length(
                problems, (*where, "description"), option.get("description"), SELECT_OPTION_TEXT_MAX
            )
    return problems


def component_problems(components: Sequence[JSON], flags: int = 0) -> list[Problem]:
    """Problems with a message's components (legacy action rows, or Components V2)."""
    problems: list[Problem] = []
    v2 = bool(flags & MessageFlag.IS_COMPONENTS_V2)
    if v2:
        total = sum(1 for _ in _walk_components(components))
        if total > COMPONENTS_V2_TOTAL_MAX:
            problems.append(_too_long(("components",), COMPONENTS_V2_TOTAL_MAX, total))
        text = sum(
            len(c.get("content") or "") for c in _walk_components(components) if c.get("type") == 10
        )
        if text > TEXT_DISPLAY_TOTAL_MAX:
            problems.append(_too_long(("components",), TEXT_DISPLAY_TOTAL_MAX, text))
    elif len(components) > ACTION_ROWS_MAX:
        problems.append(_too_long(("components",), ACTION_ROWS_MAX, len(components)))
    for i, row in enumerate(components):
        path: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            if not v2:
                problems.append(
                    Problem((*path, "type"), "UNION_TYPE_CHOICES", "Top level must be action rows.")
                )
            continue
        children = row.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
        if not children:
            problems.append(
                Problem((*path, "components"), "BASE_TYPE_BAD_LENGTH", "An action row is empty.")
            )
        if len(buttons) > BUTTONS_PER_ROW:
            problems.append(_too_long((*path, "components"), BUTTONS_PER_ROW, len(buttons)))
        if selects and len(children) > 1:
            problems.append(
                Problem(
                    (*path, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its action row.",
                )
            )
        for j, child in enumerate(children):
            child_path = (*path, "components", j)
            if child.get("type") == 2:
                problems.extend(_button_problems(child, child_path))
            elif child.get("type") in (3, 5, 6, 7, 8):
                problems.extend(_select_problems(child, child_path))
            else:
                problems.append(
                    Problem(
                        (*child_path, "type"),
                        "UNION_TYPE_CHOICES",
                        f"Component type {child.get('type')!r} cannot be in a message row.",
                    )
                )
    seen: set[str] = set()
    for component in _walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            problems.append(
                Problem(
                    ("components",),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    f"custom_id {custom_id!r} is used twice in one message.",
                )
            )
        seen.add(custom_id)
    return problems


def message_problems(payload: JSON, *, attachment_count: int = 0) -> list[Problem]:
    """Problems with a message body (create or edit): content, embeds, components, files."""
    problems: list[Problem] = []
    content = payload.get("content")
    flags = int(payload.get("flags") or 0)
    if content is not None:
        _check_length(problems, ("content",), str(content), CONTENT_MAX)
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS_PER_MESSAGE:
        problems.append(_too_long(("embeds",), EMBEDS_PER_MESSAGE, len(embeds)))
    for i, embed in enumerate(embeds):
        problems.extend(embed_problems(embed, i))
    total = sum(embed_length(e) for e in embeds)
    if total > EMBED_TOTAL_MAX:
        problems.append(
            Problem(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX} (was {total}).",
            )
        )
    problems.extend(component_problems(payload.get("components") or [], flags))
    if flags & MessageFlag.IS_COMPONENTS_V2 and (content or embeds):
        problems.append(
            Problem(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "Components V2 messages cannot have content or embeds.",
            )
        )
    if attachment_count > ATTACHMENTS_PER_MESSAGE:
        problems.append(_too_long(("attachments",), ATTACHMENTS_PER_MESSAGE, attachment_count))
    return problems


def is_empty_message(payload: JSON, attachment_count: int) -> bool:
    """Whether Discord would answer ``50006 Cannot send an empty message``."""
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or attachment_count
    )


def callback_flag_problems(callback_type: int, flags: int) -> list[Problem]:
    """Flags a callback may not carry (deferrals accept only EPHEMERAL)."""
    allowed = (
        MessageFlag.EPHEMERAL
        if callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
        else CALLBACK_FLAGS_ALLOWED
    )
    if flags & ~int(allowed):
        return [
            Problem(
                ("data", "flags"),
                "MESSAGE_FLAGS_INVALID",
                f"Flags {flags} include bits Discord refuses here ({flags & ~int(allowed)}).",
            )
        ]
    return []


def autocomplete_problems(data: JSON | None, option_type: int) -> list[Problem]:
    """Problems with an autocomplete result: at most 25 choices, names and values in range.

    >>> choices = [{"name": f"Open {i}", "value": f"open-{i}"} for i in range(26)]
    >>> [str(p) for p in autocomplete_problems({"choices": choices}, 3)]
    ['data.choices: Must be 25 or fewer in length (was 26).']
    """
    problems: list[Problem] = []
    choices = (data or {}).get("choices")
    if choices is None:
        return [Problem(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required.")]
    if len(choices) > AUTOCOMPLETE_CHOICES_MAX:
        problems.append(_too_long(("data", "choices"), AUTOCOMPLETE_CHOICES_MAX, len(choices)))
    for i, choice in enumerate(choices):
        problems.extend(_choice_problems(choice, option_type, ("data", "choices", i)))
    return problems


def _choice_problems(choice: JSON, option_type: int, path: tuple[str | int, ...]) -> list[Problem]:
    problems: list[Problem] = []
    name = choice.get("name")
    _check_length(problems, (*path, "name"), name, CHOICE_NAME_MAX, required=True)
    value = choice.get("value")
    if option_type == OptionType.STRING:
        if not isinstance(value, str):
            problems.append(Problem((*path, "value"), "BASE_TYPE_STRING", "Must be a string."))
        else:
            _check_length(problems, (*path, "value"), value, CHOICE_STRING_VALUE_MAX)
    elif option_type == OptionType.INTEGER:
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > SAFE_INTEGER_MAX:
            problems.append(Problem((*path, "value"), "NUMBER_TYPE_COERCE", "Must be an integer."))
    elif option_type == OptionType.NUMBER and (
        not isinstance(value, int | float) or isinstance(value, bool)
    ):
        problems.append(Problem((*path, "value"), "NUMBER_TYPE_COERCE", "Must be a number."))
    return problems


def _text_input_problems(
    text_input: JSON, path: tuple[str | int, ...], *, in_label: bool
) -> list[Problem]:
    problems: list[Problem] = []
    _check_length(
        problems, (*path, "custom_id"), text_input.get("custom_id"), CUSTOM_ID_MAX, required=True
    )
    if text_input.get("style") not in (1, 2):
        problems.append(Problem((*path, "style"), "BASE_TYPE_CHOICES", "Style must be 1 or 2."))
    if not in_label:
        _check_length(
            problems, (*path, "label"), text_input.get("label"), TEXT_INPUT_LABEL_MAX, required=True
        )
    _check_length(
        problems,
        (*path, "placeholder"),
        text_input.get("placeholder"),
        TEXT_INPUT_PLACEHOLDER_MAX,
    )
    _check_length(problems, (*path, "value"), text_input.get("value"), TEXT_INPUT_VALUE_MAX)
    min_length = text_input.get("min_length", 0)
    max_length = text_input.get("max_length", TEXT_INPUT_VALUE_MAX)
    if not 0 <= min_length <= TEXT_INPUT_VALUE_MAX or not 1 <= max_length <= TEXT_INPUT_VALUE_MAX:
        problems.append(
            Problem((*path, "max_length"), "NUMBER_TYPE_MAX", "Lengths must be within 0-4000.")
        )
    return problems


def modal_problems(data: JSON | None) -> list[Problem]:
    """Problems with a modal: custom_id, title of at most 45, 1 to 5 rows of inputs."""
    problems: list[Problem] = []
    data = data or {}
    _check_length(
        problems, ("data", "custom_id"), data.get("custom_id"), CUSTOM_ID_MAX, required=True
    )
    _check_length(problems, ("data", "title"), data.get("title"), MODAL_TITLE_MAX, required=True)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        problems.append(
            Problem(
                ("data", "components"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length (was {len(components)}).",
            )
        )
    for i, component in enumerate(components):
        path: tuple[str | int, ...] = ("data", "components", i)
        kind = component.get("type")
        if kind == 1:
            children = component.get("components") or []
            if len(children) != 1 or children[0].get("type") != 4:
                problems.append(
                    Problem(path, "COMPONENT_LAYOUT", "A modal row holds exactly one text input.")
                )
                continue
            problems.extend(
                _text_input_problems(children[0], (*path, "components", 0), in_label=False)
            )
        elif kind == 18:
            _check_length(
                problems,
                (*path, "label"),
                component.get("label"),
                TEXT_INPUT_LABEL_MAX,
                required=True,
            )
            _check_length(
                problems,
                (*path, "description"),
                component.get("description"),
                LABEL_DESCRIPTION_MAX,
            )
            child = component.get("component") or {}
            if child.get("type") == 4:
                problems.extend(_text_input_problems(child, (*path, "component"), in_label=True))
            elif child.get("type") in (3, 5, 6, 7, 8):
                problems.extend(_select_problems(child, (*path, "component")))
            else:
                problems.append(Problem(path, "COMPONENT_LAYOUT", "A label needs an input."))
        elif kind != 10:
            problems.append(
                Problem((*path, "type"), "UNION_TYPE_CHOICES", f"Type {kind!r} is not for modals.")
            )
    return problems


def _command_text_length(command: JSON) -> int:
    total = len(command.get("name") or "") + len(command.get("description") or "")
    for option in command.get("options") or []:
        total += _command_text_length(option)
        for choice in option.get("choices") or []:
            total += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    return total


def _name_problems(name: Any, path: tuple[str | int, ...], *, chat_input: bool) -> list[Problem]:
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_MAX:
        return [
            Problem(
                (*path, "name"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {COMMAND_NAME_MAX} in length (was {name!r}).",
            )
        ]
    if chat_input and (not _COMMAND_NAME.match(name) or name != name.lower()):
        return [
            Problem(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name {name!r} is invalid: lower-case letters, digits, - _ ' only.",
            )
        ]
    return []


def _description_problems(description: Any, path: tuple[str | int, ...]) -> list[Problem]:
    if not isinstance(description, str) or not 1 <= len(description) <= COMMAND_DESCRIPTION_MAX:
        length = len(description) if isinstance(description, str) else description
        return [
            Problem(
                (*path, "description"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {COMMAND_DESCRIPTION_MAX} in length (was {length!r}).",
            )
        ]
    return []


def _option_list_problems(
    options: Sequence[JSON], path: tuple[str | int, ...], *, depth: int
) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append(_too_long((*path, "options"), COMMAND_OPTIONS_MAX, len(options)))
    names = [o.get("name") for o in options]
    for name in {n for n in names if names.count(n) > 1}:
        problems.append(
            Problem(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                f"Option name {name!r} is used twice.",
            )
        )
    kinds = [o.get("type") for o in options]
    nested = [k in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP) for k in kinds]
    if any(nested) and not all(nested):
        problems.append(
            Problem(
                (*path, "options"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Subcommands and subcommand groups cannot be mixed with other options.",
            )
        )
    seen_optional = False
    for i, option in enumerate(options):
        where = (*path, "options", i)
        kind = option.get("type")
        problems.extend(_name_problems(option.get("name"), where, chat_input=True))
        problems.extend(_description_problems(option.get("description"), where))
        if kind == OptionType.SUB_COMMAND_GROUP:
            if depth != 0:
                problems.append(
                    Problem((*where, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Nested.")
                )
            children = option.get("options") or []
            if any(c.get("type") != OptionType.SUB_COMMAND for c in children):
                problems.append(
                    Problem(
                        (*where, "options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A subcommand group may only contain subcommands.",
                    )
                )
            problems.extend(_option_list_problems(children, where, depth=depth + 1))
            continue
        if kind == OptionType.SUB_COMMAND:
            if depth > 1:
                problems.append(
                    Problem((*where, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Nested.")
                )
            problems.extend(_option_list_problems(option.get("options") or [], where, depth=2))
            continue
        if kind not in {t.value for t in OptionType}:
            problems.append(Problem((*where, "type"), "BASE_TYPE_CHOICES", f"Bad type {kind!r}."))
            continue
        if option.get("required"):
            if seen_optional:
                problems.append(
                    Problem(
                        (*where, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options.",
                    )
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if choices:
            if kind not in (OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER):
                problems.append(
                    Problem((*where, "choices"), "BASE_TYPE_CHOICES", "Choices on a bad type.")
                )
            if len(choices) > COMMAND_CHOICES_MAX:
                problems.append(_too_long((*where, "choices"), COMMAND_CHOICES_MAX, len(choices)))
            if option.get("autocomplete"):
                problems.append(
                    Problem(
                        (*where, "autocomplete"),
                        "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_AND_CHOICES",
                        "Autocomplete cannot be set together with choices.",
                    )
                )
            for j, choice in enumerate(choices):
                problems.extend(_choice_problems(choice, int(kind), (*where, "choices", j)))
        if option.get("autocomplete") and kind not in (
            OptionType.STRING,
            OptionType.INTEGER,
            OptionType.NUMBER,
        ):
            problems.append(
                Problem((*where, "autocomplete"), "BASE_TYPE_CHOICES", "Autocomplete on bad type.")
            )
        for key, low in (("min_length", 0), ("max_length", 1)):
            if key in option:
                if kind != OptionType.STRING:
                    problems.append(Problem((*where, key), "BASE_TYPE_CHOICES", "STRING only."))
                elif not low <= option[key] <= STRING_OPTION_LENGTH_MAX:
                    problems.append(
                        Problem((*where, key), "NUMBER_TYPE_MAX", f"Must be {low}-6000.")
                    )
        for key in ("min_value", "max_value"):
            if key in option and kind not in (OptionType.INTEGER, OptionType.NUMBER):
                problems.append(Problem((*where, key), "BASE_TYPE_CHOICES", "Numbers only."))
        if "channel_types" in option and kind != OptionType.CHANNEL:
            problems.append(
                Problem((*where, "channel_types"), "BASE_TYPE_CHOICES", "CHANNEL only.")
            )
    return problems


def command_problems(command: JSON, index: int) -> list[Problem]:
    """Problems with one application command definition."""
    problems: list[Problem] = []
    path: tuple[str | int, ...] = (index,)
    kind = command.get("type", 1)
    if kind not in (1, 2, 3):
        return [Problem((*path, "type"), "BASE_TYPE_CHOICES", f"Unsupported command type {kind}.")]
    chat_input = kind == 1
    problems.extend(_name_problems(command.get("name"), path, chat_input=chat_input))
    if chat_input:
        problems.extend(_description_problems(command.get("description"), path))
        problems.extend(_option_list_problems(command.get("options") or [], path, depth=0))
        total = _command_text_length(command)
        if total > COMMAND_TOTAL_CHARACTERS_MAX:
            problems.append(
                Problem(
                    path,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_TOTAL_CHARACTERS_MAX}, was {total}).",
                )
            )
    else:
        if command.get("description"):
            problems.append(
                Problem((*path, "description"), "BASE_TYPE_MAX_LENGTH", "Must be empty.")
            )
        if command.get("options"):
            problems.append(Problem((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be empty."))
    permissions = command.get("default_member_permissions")
    if permissions is not None and not str(permissions).isdigit():
        problems.append(
            Problem(
                (*path, "default_member_permissions"), "BASE_TYPE_INTEGER", "Must be a bit set."
            )
        )
    return problems


def command_list_problems(commands: Sequence[JSON]) -> list[Problem]:
    """Problems with a bulk overwrite: each command, unique names per type, per-type counts."""
    problems: list[Problem] = []
    for i, command in enumerate(commands):
        problems.extend(command_problems(command, i))
    keys = [(c.get("type", 1), c.get("name")) for c in commands]
    for kind, name in sorted({k for k in keys if keys.count(k) > 1}, key=str):
        problems.append(
            Problem(
                (),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique (type {kind} {name!r}).",
            )
        )
    for kind, limit in ((1, CHAT_INPUT_COMMANDS_MAX), (2, CONTEXT_MENU_COMMANDS_MAX)):
        count = sum(1 for k, _ in keys if k == kind)
        if count > limit:
            problems.append(_too_long((), limit, count))
    count = sum(1 for k, _ in keys if k == 3)
    if count > CONTEXT_MENU_COMMANDS_MAX:
        problems.append(_too_long((), CONTEXT_MENU_COMMANDS_MAX, count))
    return problems
