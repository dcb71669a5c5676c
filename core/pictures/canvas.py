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
from typing import Protocol
from xml.sax.saxutils import escape

from core.pictures import PicturesUnavailable
from core.pictures.layout import NOTE_TEXT_MAX, Cell, Sheet, printable

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as error:  # pragma: no cover - exercised where Pillow is absent
    raise PicturesUnavailable() from error

Box = tuple[int, int, int, int]


class Pen(Protocol):
    """Where a sheet is painted: a PNG image or an SVG document."""

    def rect(
        self, box: Box, fill: str | None = None, outline: str | None = None, width: int = 1
    ) -> None: ...

    def line(self, box: Box, colour: str, width: int) -> None: ...

    def text(
        self, x: float, y: int, text: str, face: ImageFont.FreeTypeFont, colour: str
    ) -> None: ...

    def result(self) -> bytes: ...


#: Sizes in pixels (pictures are drawn at twice a phone's CSS density).
BODY = 24
TITLE = 30
SMALL = 21
ROW = 40
PAD = 9
MARGIN = 20
#: Names are cut to no less than this (pixels) before a narrow picture leaves out columns…
SHRINK_MIN = 180
#: …and to no less than this when it still does not fit.
SHRINK_FLOOR = 150
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


class _Png:
    """Paints on a Pillow image; :meth:`result` is the PNG, written without metadata."""

    def __init__(self, width: int, height: int, background: str) -> None:
        self.image = Image.new("RGB", (width, height), background)
        self.pen = ImageDraw.Draw(self.image)

    def rect(
        self, box: Box, fill: str | None = None, outline: str | None = None, width: int = 1
    ) -> None:
        self.pen.rectangle(box, fill=fill, outline=outline, width=width)

    def line(self, box: Box, colour: str, width: int) -> None:
        self.pen.line(box, fill=colour, width=width)

    def text(self, x: float, y: int, text: str, face: ImageFont.FreeTypeFont, colour: str) -> None:
        self.pen.text((round(x), y), text, font=face, fill=colour)

    def result(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG", optimize=False, compress_level=6)
        return out.getvalue()


class _Svg:
    """Writes the same shapes as SVG elements (text in DejaVu Sans Condensed where the viewer
    has it, else its sans-serif); boxes are Pillow's, corners inclusive."""

    def __init__(self, width: int, height: int, background: str) -> None:
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">',
            f'<rect width="{width}" height="{height}" fill="{background}"/>',
        ]

    def rect(
        self, box: Box, fill: str | None = None, outline: str | None = None, width: int = 1
    ) -> None:
        x0, y0, x1, y1 = box
        if fill:
            self.parts.append(
                f'<rect x="{x0}" y="{y0}" width="{x1 - x0 + 1}" height="{y1 - y0 + 1}" '
                f'fill="{fill}"/>'
            )
        if outline:
            half = width / 2
            self.parts.append(
                f'<rect x="{x0 + half}" y="{y0 + half}" width="{x1 - x0 + 1 - width}" '
                f'height="{y1 - y0 + 1 - width}" fill="none" stroke="{outline}" '
                f'stroke-width="{width}"/>'
            )

    def line(self, box: Box, colour: str, width: int) -> None:
        x0, y0, x1, y1 = box
        y = y0 + 0.5 if width % 2 else y0
        self.parts.append(
            f'<line x1="{x0}" y1="{y}" x2="{x1 + 1}" y2="{y1 + (y - y0)}" stroke="{colour}" '
            f'stroke-width="{width}"/>'
        )

    def text(self, x: float, y: int, text: str, face: ImageFont.FreeTypeFont, colour: str) -> None:
        ascent, _ = face.getmetrics()
        weight = ' font-weight="bold"' if "Bold" in (face.getname()[1] or "") else ""
        self.parts.append(
            f'<text x="{x:.1f}" y="{y + ascent}" font-family="DejaVu Sans Condensed, '
            f'DejaVu Sans, sans-serif" font-size="{face.size}"{weight} fill="{colour}" '
            f'xml:space="preserve">{escape(text)}</text>'
        )

    def result(self) -> bytes:
        return ("\n".join([*self.parts, "</svg>"]) + "\n").encode("utf-8")


def draw(sheet: Sheet, theme: str = "light", fmt: str = "png") -> tuple[bytes, int, int]:
    """The sheet as PNG (or SVG) bytes, with its width and height."""
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
    pen: Pen = (_Svg if fmt == "svg" else _Png)(width, height, colours["background"])
    y = MARGIN
    for line in title:
        pen.text(MARGIN, y, line, title_face, colours["text"])
        y += TITLE + 10
    for line in subtitle:
        pen.text(MARGIN, y, line, small, colours["muted"])
        y += SMALL + 8
    y += 10
    lefts = [MARGIN + sum(widths[:j]) for j in range(len(widths))]
    pen.rect((MARGIN, y, MARGIN + table_width - 1, y + ROW - 1), fill=colours["header"])
    for j, heading in enumerate(sheet.headings):
        _cell_text(pen, heading.text, bold, lefts[j], widths[j], y, heading.align, colours["text"])
    y += ROW
    pen.line((MARGIN, y - 1, MARGIN + table_width - 1, y - 1), colours["rule"], 2)
    fills = sheet.row_fills or (None,) * len(sheet.rows)
    for n, (row, cells, fill) in enumerate(zip(sheet.rows, texts, fills, strict=True)):
        background = fill or ("stripe" if n % 2 else None)
        if background:
            pen.rect((MARGIN, y, MARGIN + table_width - 1, y + ROW - 1), fill=colours[background])
        for j, (cell, text) in enumerate(zip(row, cells, strict=True)):
            _cell(pen, cell, text, lefts[j], widths[j], y, sheet, j, colours, body, bold)
        y += ROW
    pen.line((MARGIN, y, MARGIN + table_width - 1, y), colours["rule"], 1)
    if notes:
        y += 14
        for swatch, lines in notes:
            x = MARGIN
            if swatch:
                pen.rect((x, y + 5, x + 15, y + 20), fill=colours[swatch])
                x += 28
            for line in lines:
                pen.text(x, y, line, small, colours["text"])
                y += SMALL + 8
            y += 6
    return pen.result(), width, height


def _cell(
    pen: Pen,
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
        pen.rect((left + 1, y + 1, left + width - 2, y + ROW - 2), fill=colours[cell.fill])
    for k, mark in enumerate(cell.marks):
        inset = 1 + 4 * k
        pen.rect(
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
    pen: Pen,
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
        pen.text(left + PAD, top, text, face, colour)
    elif align == "right":
        pen.text(left + width - PAD - face.getlength(text), top, text, face, colour)
    else:
        pen.text(left + (width - face.getlength(text)) / 2, top, text, face, colour)
