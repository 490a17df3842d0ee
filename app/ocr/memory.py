"""Give freed heap back to the OS after a big decode.

A decoded photo is tens of megabytes freed at once; glibc keeps such memory in the arena of the
thread that freed it (and raises its mmap threshold after the first one), so a burst of uploads
would leave the server gigabytes larger for good. malloc_trim returns the free pages.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from functools import cache

log = logging.getLogger(__name__)


@cache
def _malloc_trim() -> ctypes._NamedFuncPointer | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None


def release_free_memory() -> None:
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
