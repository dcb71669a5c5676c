"""Drawing a :class:`~core.pictures.layout.Sheet` into PNG bytes with Pillow.

Imported only when a picture is drawn (Pillow is the optional ``images`` extra). Text is
laid out by FreeType alone (Pillow's basic layout, no system shaping library) in the fonts
shipped beside this module, and the PNG is written without metadata: the same sheet gives
the same bytes.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from core.pictures import PicturesUnavailable
from core.pictures.layout import NOTE_TEXT_MAX, Cell, Sheet, printable

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as error:  # pragma: no cover - exercised where Pillow is absent
    raise PicturesUnavailable() from error

#: Sizes in pixels (pictures are drawn at twice a phone's CSS density).
BODY = 24
TITLE = 30
SMALL = 21
ROW = 40
PAD = 12
MARGIN = 20
#: Names are cut to no less than this (pixels) before a narrow picture leaves out columns…
SHRINK_MIN = 220
#: …and to no less than this when it still does not fit.
SHRINK_FLOOR = 120
#: The narrowest notes are wrapped to, in pixels.
NOTES_MIN = 560

PALETTES: dict[str, dict[str, str]] = {
    "light": {
        "background": "#ffffff",
        "text": "#1e1f22",
        "muted": "#5c5e66",
        "rule": "#c4c9d0",
        "stripe": "#f2f3f5",
        "header": "#e3e5e8",
        "highlight": "#fff0b3",
        "win": "#c6ebcf",
        "draw": "#f9e4ad",
        "loss": "#f5c6c6",
        "unplayed": "#dbe3f3",
        "above": "#1f6feb",
        "below": "#c2410c",
    },
    "dark": {
        "background": "#313338",
        "text": "#f2f3f5",
        "muted": "#b5bac1",
        "rule": "#4e5058",
        "stripe": "#383a40",
        "header": "#2b2d31",
        "highlight": "#5b4d17",
        "win": "#1d4d2c",
        "draw": "#5a4816",
        "loss": "#6b2327",
        "unplayed": "#2d3a57",
        "above": "#58a6ff",
        "below": "#ff8f4d",
    },
}


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans Condensed at ``size`` pixels."""
    name = "DejaVuSansCondensed-Bold.ttf" if bold else "DejaVuSansCondensed.ttf"
    data = resources.files("core.pictures").joinpath("fonts", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


def cut(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut (ending in ``…``) to at most ``width`` pixels in ``face``."""
    if face.getlength(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if face.getlength(text[:mid] + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def wrap(text: str, face: ImageFont.FreeTypeFont, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` pixels, broken at spaces (a word longer than a
    line is cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if face.getlength(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = cut(word, face, width)
    if line:
        lines.append(line)
    return lines


def _widths(sheet: Sheet, texts: list[list[str]], fit: bool = True) -> list[int]:
    body, bold = font(BODY), font(BODY, True)
    widths = []
    for j, heading in enumerate(sheet.headings):
        w = bold.getlength(heading.text)
        for row, cells in zip(sheet.rows, texts, strict=True):
            face = bold if row[j].bold else body
            w = max(w, face.getlength(cells[j]))
        widths.append(int(w + 0.999) + 2 * PAD)
    if fit and sheet.max_width is not None:
        excess = sum(widths) + 2 * MARGIN - sheet.max_width
        for j, heading in enumerate(sheet.headings):
            if heading.shrink and excess > 0:
                shrunk = max(min(SHRINK_FLOOR, widths[j]), widths[j] - excess)
                excess -= widths[j] - shrunk
                widths[j] = shrunk
    return widths


def least_width(sheet: Sheet) -> int:
    """The width of the sheet's table with names cut as far as they may be."""
    texts = [[printable(c.text) for c in row] for row in sheet.rows]
    widths = _widths(sheet, texts, fit=False)
    return (
        sum(
            min(w, SHRINK_MIN) if h.shrink else w
            for w, h in zip(widths, sheet.headings, strict=True)
        )
        + 2 * MARGIN
    )


def draw(sheet: Sheet, theme: str = "light") -> tuple[bytes, int, int]:
    """The sheet as PNG bytes, with its width and height."""
    colours = PALETTES[theme]
    body, bold, title_face, small = font(BODY), font(BODY, True), font(TITLE, True), font(SMALL)
    texts = [[printable(c.text) for c in row] for row in sheet.rows]
    widths = _widths(sheet, texts)
    table_width = sum(widths)
    width = max(table_width, NOTES_MIN) + 2 * MARGIN
    if sheet.max_width is not None:
        width = max(table_width + 2 * MARGIN, min(width, sheet.max_width))
    inner = width - 2 * MARGIN
    title = wrap(printable(sheet.title, NOTE_TEXT_MAX), title_face, inner)
    subtitle = wrap(printable(sheet.subtitle, NOTE_TEXT_MAX), small, inner)
    notes = [
        (n.swatch, wrap(printable(n.text, NOTE_TEXT_MAX), small, inner - (28 if n.swatch else 0)))
        for n in sheet.notes
    ]
    note_lines = sum(len(lines) for _, lines in notes)
    height = (
        MARGIN
        + len(title) * (TITLE + 10)
        + len(subtitle) * (SMALL + 8)
        + 10
        + ROW * (len(sheet.rows) + 1)
        + (14 + note_lines * (SMALL + 8) + 6 * len(notes) if notes else 0)
        + MARGIN
    )
    image = Image.new("RGB", (width, height), colours["background"])
    pen = ImageDraw.Draw(image)
    y = MARGIN
    for line in title:
        pen.text((MARGIN, y), line, font=title_face, fill=colours["text"])
        y += TITLE + 10
    for line in subtitle:
        pen.text((MARGIN, y), line, font=small, fill=colours["muted"])
        y += SMALL + 8
    y += 10
    lefts = [MARGIN + sum(widths[:j]) for j in range(len(widths))]
    pen.rectangle((MARGIN, y, MARGIN + table_width - 1, y + ROW - 1), fill=colours["header"])
    for j, heading in enumerate(sheet.headings):
        _cell_text(pen, heading.text, bold, lefts[j], widths[j], y, heading.align, colours["text"])
    y += ROW
    pen.line((MARGIN, y - 1, MARGIN + table_width - 1, y - 1), fill=colours["rule"], width=2)
    fills = sheet.row_fills or (None,) * len(sheet.rows)
    for n, (row, cells, fill) in enumerate(zip(sheet.rows, texts, fills, strict=True)):
        background = fill or ("stripe" if n % 2 else None)
        if background:
            pen.rectangle(
                (MARGIN, y, MARGIN + table_width - 1, y + ROW - 1), fill=colours[background]
            )
        for j, (cell, text) in enumerate(zip(row, cells, strict=True)):
            _cell(pen, cell, text, lefts[j], widths[j], y, sheet, j, colours, body, bold)
        y += ROW
    pen.line((MARGIN, y, MARGIN + table_width - 1, y), fill=colours["rule"], width=1)
    if notes:
        y += 14
        for swatch, lines in notes:
            x = MARGIN
            if swatch:
                pen.rectangle((x, y + 5, x + 15, y + 20), fill=colours[swatch])
                x += 28
            for line in lines:
                pen.text((x, y), line, font=small, fill=colours["text"])
                y += SMALL + 8
            y += 6
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue(), width, height


def _cell(
    pen: ImageDraw.ImageDraw,
    cell: Cell,
    text: str,
    left: int,
    width: int,
    y: int,
    sheet: Sheet,
    j: int,
    colours: dict[str, str],
    body: ImageFont.FreeTypeFont,
    bold: ImageFont.FreeTypeFont,
) -> None:
    if cell.fill:
        pen.rectangle((left + 1, y + 1, left + width - 2, y + ROW - 2), fill=colours[cell.fill])
    for k, mark in enumerate(cell.marks):
        inset = 1 + 4 * k
        pen.rectangle(
            (left + inset, y + inset, left + width - 1 - inset, y + ROW - 1 - inset),
            outline=colours[mark],
            width=3,
        )
    face = bold if cell.bold else body
    heading = sheet.headings[j]
    if heading.shrink:
        text = cut(text, face, width - 2 * PAD)
    _cell_text(pen, text, face, left, width, y, heading.align, colours["text"])


def _cell_text(
    pen: ImageDraw.ImageDraw,
    text: str,
    face: ImageFont.FreeTypeFont,
    left: int,
    width: int,
    y: int,
    align: str,
    colour: str,
) -> None:
    top = y + (ROW - BODY) // 2 - 1
    if align == "left":
        pen.text((left + PAD, top), text, font=face, fill=colour)
    elif align == "right":
        pen.text((left + width - PAD - face.getlength(text), top), text, font=face, fill=colour)
    else:
        pen.text((left + (width - face.getlength(text)) / 2, top), text, font=face, fill=colour)
