"""The photo's second reader, and the rule that two readings must agree.

RapidOCR with the layout step reads every photo (app/ocr). When a model that takes images is
configured (capability `read_image`: Gemini, Claude, OpenAI), it reads the same photo too, at
the same time, through the same Resilient client (timeouts, retries, budget) as every model
call. The text path proves nothing unless two parsers read each expression the same way
(app/symbolic/crosscheck.py); a photo is solved only when its two readings are the same
problem:

- the same text: both as LaTeX (the OCR's linear notation through app/ocr/latex.py), spacing,
  delimiters and spellings of one command (\\dfrac, \\frac; \\cdot, \\times) aside; or
- the same mathematics: the symbolic reader reads both as one problem, term for term
  (app/symbolic/readings.py), e.g. `(x)/(4)=3` and `\\frac{x}{4} = 3`.

Anything else is a disagreement: nothing is solved, the scan is `unverified` with caution code
`readings_disagree`, and both readings are shown. A single reading is never enough for a proof:
when the OCR could not read the photo whole, the model's reading is shown, not solved.

The second reader abstains (and the OCR's reading decides alone, as without a model) on any
provider failure (5xx, 429, a timeout, a malformed reply), on a reply that holds no reading, and
on a reading the model itself marks illegible. It never fails the scan.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata

from app.llm.base import ModelClient
from app.llm.errors import ProviderError
from app.llm.outputs import ReadingOutput, schema_of
from app.llm.structured import extract_json
from app.llm.types import Image
from app.ocr.latex import to_latex
from app.pipeline.context import PipelineContext
from app.pipeline.prompts import read_image as prompts
from app.symbolic.sandbox import SandboxTimeout, SandboxUnavailable, SymbolicSandbox

log = logging.getLogger(__name__)

MAX_READING_CHARS = 2000
READ_MAX_TOKENS = 1024

_MAGIC = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def image_type(image: bytes) -> str | None:
    """The photo's MIME type from its first bytes (the upload check admits PNG and JPEG)."""
    return next((kind for magic, kind in _MAGIC.items() if image.startswith(magic)), None)


def reading_client(ctx: PipelineContext) -> ModelClient | None:
    """The strong-tier client of the first provider that reads images; None without one."""
    names = ctx.registry.route("*", "read_image")
    return ctx.registry.get(names[0], "strong") if names else None


# Delimiters a model puts around the whole reading despite the prompt.
_OUTER = re.compile(r"^\s*(?:\$\$|\$|\\\[|\\\()(.*?)(?:\$\$|\$|\\\]|\\\))\s*$", re.DOTALL)


def read_reply(data: object) -> str | None:
    """The reading in a reply's JSON, or None: no reading, or one marked illegible."""
    if not isinstance(data, dict):
        return None
    problem, legible = data.get("problem"), data.get("legible", True)
    if not isinstance(problem, str) or legible is not True or len(problem) > MAX_READING_CHARS:
        return None
    match = _OUTER.match(problem)
    problem = (match.group(1) if match else problem).strip()
    return problem or None


async def second_reading(client: ModelClient, image: bytes, timeout: float) -> str | None:
    """What the model read off the photo, or None when it abstains."""
    mime_type = image_type(image)
    if mime_type is None:
        return None
    messages = prompts.build(Image(image, mime_type))
    try:
        async with asyncio.timeout(timeout):  # the whole call, retries included
            response = await client.generate(
                messages,
                json_schema=schema_of(ReadingOutput),
                timeout=timeout,
                max_tokens=READ_MAX_TOKENS,
            )
    except (TimeoutError, ProviderError) as exc:
        log.info("no second reading from %s: %s", client.provider, exc or "timeout")
        return None
    except Exception:  # an SDK bug must not fail a scan over its second reading
        log.warning("second reading on %s failed", client.provider, exc_info=True)
        return None
    reading = read_reply(response.data or extract_json(response.text))
    if reading is None:
        log.info("no second reading from %s: the reply holds none", client.provider)
    return reading


# ------------------------------------------------------------------ do the readings agree?

_COMMANDS = {
    r"\dfrac": r"\frac",
    r"\tfrac": r"\frac",
    r"\cdot": r"\times",
    "×": r"\times",
    "·": r"\times",
    "*": r"\times",
    "÷": r"\div",
    "−": "-",
    r"\le": r"\leq",
    r"\ge": r"\geq",
    "≤": r"\leq",
    "≥": r"\geq",
}
_DROPPED = re.compile(r"\\left(?![a-zA-Z])|\\right(?![a-zA-Z])|\\displaystyle|\\[,;!: ]|\$")
_COMMAND = re.compile(r"\\[a-zA-Z]+|[×·*÷−≤≥]")
_TEXT = re.compile(r"\\(?:text|mathrm|textrm|mbox)\{([^{}]*)\}")
_SCRIPT = re.compile(r"([\^_])([A-Za-z0-9])")  # x^2 → x^{2}
_SPACE = re.compile(r"\s+")
_LOOSE_SPACE = re.compile(r" (?![A-Za-z0-9])|(?<![A-Za-z0-9]) ")


def canonical_latex(text: str) -> str:
    """One spelling of a LaTeX reading, for comparing two: spacing (except between two
    letters or digits, "2 3" is not "23"), $ and \\left/\\right, \\text{} wrappers, and the
    spellings of one command aside."""
    text = unicodedata.normalize("NFKC", text)
    text = _TEXT.sub(r"\1", text)
    text = _DROPPED.sub(" ", text)
    # A control word ends at the first non-letter: a space after it means nothing.
    text = _COMMAND.sub(lambda m: _COMMANDS.get(m.group(0), m.group(0)) + " ", text)
    text = _SCRIPT.sub(r"\1{\2}", text)
    return _LOOSE_SPACE.sub("", _SPACE.sub(" ", text).strip())


async def readings_agree(sandbox: SymbolicSandbox, ocr_text: str, model_reading: str) -> bool:
    """The OCR's reading (its linear notation) and the model's (LaTeX): the same problem?"""
    if canonical_latex(to_latex(ocr_text)) == canonical_latex(model_reading):
        return True
    try:
        return await sandbox.same_problem(ocr_text, model_reading)
    except (SandboxTimeout, SandboxUnavailable) as exc:  # not shown to agree: they do not
        log.info("could not compare the readings: %s", exc)
        return False
