"""Turn OCR boxes into lines of text, with fixes for how PP-OCR reads printed math.

The detector often cuts a formula into pieces around wide operators; the Chinese recognizer
then reads a lone "=" as "二" and a lone "-" as "一", neighbouring boxes can both contain the
same character, and thin strokes become stray "、" boxes. Inside an ASCII formula those are fixed;
in Chinese text they are left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROW_TOLERANCE = 0.5  # boxes whose vertical centres differ by < half a line height share a row
_LOOKALIKES = {"二": "=", "一": "-", "十": "+", "＝": "=", "×": "*"}
_CJK = re.compile(r"[\u3400-\u9fff]")
_STRAY = re.compile(r"^[、。，．·・]+$")  # CJK punctuation is never part of an ASCII formula


@dataclass(frozen=True, slots=True)
class Box:
    text: str
    left: float
    right: float
    top: float
    bottom: float

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def height(self) -> float:
        return self.bottom - self.top


def _rows(boxes: list[Box]) -> list[list[Box]]:
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: b.middle):
        anchor = rows[-1][0] if rows else None
        if anchor and abs(box.middle - anchor.middle) < ROW_TOLERANCE * max(
            box.height, anchor.height
        ):
            rows[-1].append(box)
        else:
            rows.append([box])
    return [sorted(row, key=lambda b: b.left) for row in rows]


def _fix_math_row(row: list[Box]) -> list[str]:
    ascii_row = not any(_CJK.search(b.text) for b in row if b.text not in _LOOKALIKES)
    texts: list[str] = []
    previous: Box | None = None
    for box in row:
        text = box.text.strip()
        if ascii_row:
            if _STRAY.match(text):
                continue
            text = _LOOKALIKES.get(text, text)
            if (
                previous is not None
                and texts
                and _overlap(previous, box)
                and texts[-1]
                and text
                and texts[-1][-1] == text[0]
            ):
                texts[-1] = texts[-1][:-1].rstrip()  # the shared character was read twice
        texts.append(text)
        previous = box
    return [t for t in texts if t]


def _overlap(left: Box, right: Box) -> bool:
    shared = left.right - right.left
    return shared > 0.3 * min(left.right - left.left, right.right - right.left)


def reading_order(boxes: list[Box]) -> list[str]:
    """Rows top to bottom, each read left to right."""
    return [" ".join(_fix_math_row(row)) for row in _rows(boxes)]
