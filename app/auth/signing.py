"""The one HMAC machinery behind every signed token the server issues (dashboard links and
cookies, per-student tokens): SHA-256 MACs over `purpose:message`, so a signature made for
one purpose is never valid for another, compared in constant time, and checked for shape
first so that nothing a client sends can raise (non-ASCII, absurd lengths)."""

from __future__ import annotations

import base64
import hashlib
import hmac

MAX_SIGNATURE_CHARS = 64  # base64url of a SHA-256 MAC is 43


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def mac(secret: bytes, purpose: str, message: str) -> str:
    """The base64url MAC of `message` for `purpose` (no padding: safe in URLs and cookies)."""
    return b64url(hmac.new(secret, f"{purpose}:{message}".encode(), hashlib.sha256).digest())


def signature_matches(secret: bytes, purpose: str, message: str, signature: str) -> bool:
    """False for anything but this message's MAC for this purpose: never an exception."""
    if not signature.isascii() or len(signature) > MAX_SIGNATURE_CHARS:
        return False  # compare_digest refuses non-ASCII str
    return hmac.compare_digest(mac(secret, purpose, message).encode(), signature.encode())


def is_ascii_number(text: str, max_digits: int) -> bool:
    # str.isdigit() is true for "²" and other digits int() refuses: ASCII decimals only.
    return 0 < len(text) <= max_digits and text.isascii() and text.isdecimal()
