"""Untrusted text (the student's problem, a model's answer) is data, wrapped in tags.

Prompts tell the model that everything inside the tags is data; the closing tag is defanged
inside the data so a problem cannot end its own block and start issuing instructions.
"""

from __future__ import annotations

import re


def wrap(tag: str, text: str) -> str:
    safe = re.sub(rf"<\s*/?\s*{tag}\s*>", lambda m: m.group(0).replace("<", "‹"), text, flags=re.I)
    return f"<{tag}>\n{safe}\n</{tag}>"


def unwrap(tag: str, text: str) -> str | None:
    """The content of the last <tag> block in text, or None."""
    blocks = re.findall(rf"<{tag}>\n?(.*?)\n?</{tag}>", text, flags=re.S)
    return blocks[-1] if blocks else None
