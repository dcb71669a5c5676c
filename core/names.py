"""What a player's name may be, and how it is written where it could be taken for markup.

A name is data typed by a member, a TD or a file, never markup. Four rules, each defined
here once and used by every front door:

- :func:`name_problem`: a name has 1 to :data:`NAME_MAX` characters once its spaces are
  tidied, at least one of them visible, and no control characters (C0/C1 controls, line and
  paragraph separators, or the bidirectional overrides that make text read backwards).
- :func:`name_key`: two names are the same name when they differ only in spacing, case,
  Unicode composition (``é`` typed as one character or as ``e`` and a combining accent) or
  characters that show nothing (Unicode's default-ignorable code points: zero-width spaces
  and joiners, soft hyphens, variation selectors, fillers).
- :func:`markdown_safe`: a name (or a sentence holding names) shown in Discord-flavoured
  Markdown renders as the characters typed: no emphasis, heading, quote, list, spoiler,
  masked link, mention, timestamp or code fence; inside a code block no fence either.
- :func:`mentioned_id`: a Discord mention of a member (``<@id>``) read as the id it names.
- :func:`csv_safe`: a CSV cell a spreadsheet would run as a formula (OWASP "CSV injection":
  a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written
  with a leading apostrophe, which spreadsheets read as "this is text";
  :func:`csv_unsafe` takes it off again when Harkness reads its own CSV back.
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable, Sequence

from core.limits import quote
from core.problems import Problem

#: The longest name, in characters (a Discord option allows 100; TRF-16 keeps 33).
NAME_MAX = 100

#: Format characters that reorder text (bidirectional embeddings, overrides, isolates).
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


#: Characters that show nothing: Unicode's Default_Ignorable_Code_Point property (Unicode 15.1,
#: DerivedCoreProperties.txt; Python's unicodedata does not expose it) and the braille
#: blank (U+2800), which renders as a space without being one. A name made only of these
#: (and spaces) looks empty; two names that differ only by them look the same.
_INVISIBLE = re.compile(
    "["
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
    "]"
)


def visible(name: str) -> str:
    """``name`` without the characters that show nothing (zero-width spaces and joiners,
    soft hyphens, variation selectors, fillers, the braille blank).

    >>> visible("Alice\u200b Archer"), visible("\u3164\u200d")
    ('Alice Archer', '')
    """
    return _INVISIBLE.sub("", name)


def tidy(name: str) -> str:
    """``name`` with its runs of spaces (tabs, newlines) made one space, ends trimmed.

    >>> tidy("  Carol \\t  Smith ")
    'Carol Smith'
    """
    return " ".join(name.split())


def name_key(name: str) -> str:
    """A name (of a player, a tournament, a column) as compared: characters that show nothing
    removed (:func:`visible`), composed the one Unicode way (NFC), spaces collapsed
    (non-breaking ones too), case folded. The one key every front door compares names by.

    >>> name_key("  Spring\u00a0  OPEN ")
    'spring open'
    >>> name_key("Alice\u200b Archer") == name_key("alice archer")
    True
    >>> name_key("Cle\u0301ment") == name_key("Cl\u00e9ment")
    True
    """
    return " ".join(unicodedata.normalize("NFC", visible(name)).split()).casefold()


#: A Discord mention of a member: ``<@80351110224678912>`` (or the older ``<@!…>``).
_MENTION = re.compile(r"<@!?(\d+)>")


def mentioned_id(text: str) -> str | None:
    """The user id a Discord mention of a member names (``<@id>`` or ``<@!id>``, spaces
    around it ignored), else None: the one reading of a mention, for the bot's player
    lookup and a sheet's ``Discord`` column alike.

    >>> mentioned_id(" <@!42> "), mentioned_id("<@&7>"), mentioned_id("Ann <@42>")
    ('42', None, None)
    """
    found = _MENTION.fullmatch(text.strip())
    return found.group(1) if found else None


def name_problem(name: str, what: str = "name") -> Problem | None:
    """What is wrong with ``name`` as a player's (or, with ``what``, a tournament's) name,
    or None: a ``bad-name`` :class:`~core.problems.Problem` whose ``value`` is the name
    (quoted, shortened). Spaces are tidied first (:func:`tidy`), so tabs and newlines are
    not problems; other control characters are.

    >>> name_problem("Carol"), name_problem("   ").message
    (None, 'a name cannot be empty')
    >>> name_problem("Bob\\x07").message
    'a name cannot hold control characters (U+0007 at character 4)'
    >>> name_problem("x" * 101, "tournament name").message
    'a tournament name has at most 100 characters (this one has 101)'
    >>> name_problem("\u200b\u3164").code
    'bad-name'
    """
    text = tidy(name)
    detail = None
    if not text:
        detail = "cannot be empty"
    elif not visible(text).strip():
        detail = "needs a visible character (this one has only characters that show nothing)"
    elif len(text) > NAME_MAX:
        detail = f"has at most {NAME_MAX} characters (this one has {len(text)})"
    else:
        for i, char in enumerate(text, start=1):
            if char in _BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cs"):
                detail = f"cannot hold control characters (U+{ord(char):04X} at character {i})"
                break
    if detail is None:
        return None
    return Problem(
        f"a {what} {detail}", code="bad-name", field="name", value=quote(text), detail=detail
    )


# Markdown: every character Discord gives a meaning anywhere in a line, then the ones that
# matter only at the start of a line (headings, lists, subtext).
_INLINE = re.compile(r"([\\*_~|`><@]|\](?=\())")
_LINE_START = re.compile(r"^(\s*)(#{1,3}(?=\s)|-#(?=\s)|[-+](?=\s)|\d+(?=[.)]\s))", re.MULTILINE)
#: What no name may hold (:func:`name_problem`) but text read from elsewhere (a sheet) might:
#: shown as U+FFFD, so it can neither reorder nor hide what follows. Newlines and tabs stay.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029" + "".join(sorted(_BIDI)) + "]")
#: Looks like a backtick and is as wide, but never opens or closes code.
_CODE_TICK = "\u02cb"


def markdown_safe(text: str, *, in_code: bool = False) -> str:
    r"""``text`` as Discord shows it literally: each Markdown character (emphasis, code,
    spoilers, quotes), the ``]`` that would close a masked link's text, and each character
    that starts a mention, channel, role or timestamp (``<``, ``@``) backslash-escaped, and
    a heading, list or subtext marker at the start of a line too; control characters and
    bidirectional overrides become U+FFFD (``�``). ``in_code=True`` is for
    text inside a code block, where backslashes show as they are and only a backtick could
    end the block: backticks become a look-alike.

    >>> print(markdown_safe("**Bob** [site](https://x.y) <@80351110224678912> @everyone"))
    \*\*Bob\*\* [site\](https://x.y) \<\@80351110224678912\> \@everyone
    >>> print(markdown_safe("# Big") + " " + markdown_safe("Jean-Luc #2 [undone]"))
    \# Big Jean-Luc #2 [undone]
    >>> markdown_safe("```x```", in_code=True), markdown_safe("Ann\u202eyzal")
    ('ˋˋˋxˋˋˋ', 'Ann�yzal')
    """
    text = _HIDDEN.sub("\ufffd", text)
    if in_code:
        return text.replace("`", _CODE_TICK)
    return _LINE_START.sub(r"\1\\\2", _INLINE.sub(r"\\\1", text))


#: What a spreadsheet runs as a formula at the start of a cell.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Where CSV text has a cell starting with one of :data:`_FORMULA_START`: at the start, or
#: after a comma or a line end, behind the quote of a quoted cell (or anywhere inside a
#: quoted cell that holds one of them, which only costs a second look).
_RISKY_FIRST_CELL = re.compile(f'"?[{re.escape("".join(_FORMULA_START))}]')
_RISKY_CELL = re.compile(f'[,\n]"?[{re.escape("".join(_FORMULA_START))}]')
_NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")


def csv_safe(cell: str) -> str:
    """``cell`` as a CSV export writes it: with an apostrophe in front when a spreadsheet
    would take it for a formula. Numbers (``-3``, ``+1.5``) and a lone ``-`` (withdrawn)
    are left as they are: a spreadsheet reads them as values.

    >>> [csv_safe(c) for c in ["=1+1", "+Bob", "@SUM(A1)", "-", "-2.5", "Ann", "\\tx"]]
    ["'=1+1", "'+Bob", "'@SUM(A1)", '-', '-2.5', 'Ann', "'\\tx"]
    """
    if cell.startswith(_FORMULA_START) and cell != "-" and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def csv_unsafe(cell: str) -> str:
    """A cell written by :func:`csv_safe` as it was, so an export reads back unchanged.

    >>> csv_unsafe("'=1+1"), csv_unsafe("'Tis"), csv_unsafe("Ann")
    ('=1+1', "'Tis", 'Ann')
    """
    if cell.startswith("'") and csv_safe(cell[1:]) == cell:
        return cell[1:]
    return cell


def write_csv(rows: Iterable[Sequence[str]]) -> str:
    """``rows`` as CSV text (newline line ends), every cell through :func:`csv_safe`: the one
    CSV writer of every export (``convert``, ``--format csv``, the bot's crosstable).

    >>> print(write_csv([["#", "Name"], ["1", "=cmd|' /C calc'!A0"]]), end="")
    #,Name
    1,'=cmd|' /C calc'!A0
    """
    import csv  # here: most commands write no CSV

    rows = list(rows)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    text = out.getvalue()
    if not (_RISKY_FIRST_CELL.match(text) or _RISKY_CELL.search(text)):
        return text  # no cell starts with what a spreadsheet may take for a formula
    out = io.StringIO()
    risky = _FORMULA_START
    csv.writer(out, lineterminator="\n").writerows(
        [csv_safe(c) if c.startswith(risky) else c for c in row] for row in rows
    )
    return out.getvalue()
