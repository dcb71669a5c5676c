"""Bytes to text, and text to lines, with the limits of :mod:`core.limits` checked first.

A file's encoding is found by its byte-order mark (UTF-8, UTF-16 and UTF-32, as Excel's
"Unicode text" export writes them), else UTF-8, else Latin-1 (old TRF files). NUL bytes with
no mark mean UTF-16 without a mark, or not text at all: refused with a word on what it is.

>>> decode("#\\tName".encode("utf-16"))
'#\\tName'
>>> decode("Zoë".encode("latin-1")), decode(b"\\xef\\xbb\\xbfZo\\xc3\\xab")
('Zoë', 'Zoë')
>>> decode(b"#\\x00N\\x00", "x.txt")
Traceback (most recent call last):
...
core.problems.HarknessError: x.txt:1:1: the file has NUL bytes: UTF-16 without a byte-order mark, or not text; save it as UTF-8 text
>>> [n for n, _ in lines_of("a\\n\\nb\\n")]
[1, 3]
"""  # noqa: E501

from __future__ import annotations

import codecs

from core.limits import MAX_FILE_BYTES, MAX_LINE_CHARS
from core.problems import HarknessError, Problem

#: Byte-order marks, longest first (UTF-32-LE's starts with UTF-16-LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_MIB = 1024 * 1024


def too_big(
    size: int, path: str, unit: str = "bytes", more: str = "", limit: int = MAX_FILE_BYTES
) -> HarknessError:
    """The error for a file of ``size`` bytes (or characters; ``more``: " or more" when the
    rest was not read) over ``limit`` (:data:`~core.limits.MAX_FILE_BYTES`, or a prize
    file's limit).

    >>> print(too_big(300_000, "p.toml", limit=256 * 1024).problems[0])
    p.toml:1:1: the file is 300,000 bytes; the limit is 256 KiB (262,144 bytes)
    """
    shown = f"{limit // _MIB} MiB" if limit >= _MIB else f"{limit // 1024} KiB"
    return HarknessError(
        [
            Problem(
                f"the file is {size:,} {unit}{more}; the limit is {shown} ({limit:,} {unit})",
                path=path,
                line=1,
                column=1,
                code="file-too-large",
                value=str(size),
            )
        ]
    )


def decode(data: bytes, path: str = "<input>") -> str:
    """The text of a file's bytes; raises :class:`HarknessError` if it is over the size
    limit or is not text."""
    if len(data) > MAX_FILE_BYTES:
        raise too_big(len(data), path)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as error:
                raise HarknessError(
                    [
                        Problem(
                            f"the file starts as {encoding.upper()} text but byte "
                            f"{error.start + len(bom) + 1:,} is not {encoding.upper()}",
                            path=path,
                            line=1,
                            column=1,
                            code="bad-encoding",
                            value=encoding,
                        )
                    ]
                ) from None
    if b"\x00" in data:
        raise HarknessError(
            [
                Problem(
                    "the file has NUL bytes: UTF-16 without a byte-order mark, or not text; "
                    "save it as UTF-8 text",
                    path=path,
                    line=1,
                    column=1,
                    code="not-text",
                )
            ]
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def lines_of(text: str, path: str = "<input>") -> list[tuple[int, str]]:
    """The non-blank lines of ``text`` with their 1-based numbers, line ends stripped.

    Raises :class:`HarknessError` first if the text is over the file size limit or any line
    is over :data:`~core.limits.MAX_LINE_CHARS`, each such line named.
    """
    if len(text) > MAX_FILE_BYTES:
        raise too_big(len(text), path, "characters")
    lines = enumerate(text.splitlines(), start=1)
    numbered = [(n, line) for n, line in lines if line and not line.isspace()]
    long = [
        Problem(
            f"the line is {len(line):,} characters long; the limit is {MAX_LINE_CHARS:,}",
            path=path,
            line=n,
            column=MAX_LINE_CHARS + 1,
            code="line-too-long",
        )
        for n, line in numbered
        if len(line) > MAX_LINE_CHARS
    ]
    if long:
        raise HarknessError(long)
    return numbered
