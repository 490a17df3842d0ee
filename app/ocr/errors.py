"""Why an image could not be read: the caller's fault (422) or a full OCR queue (503)."""

from __future__ import annotations

from app.schemas.common import ErrorCode


class ImageUnreadable(Exception):
    """Truncated, corrupt, or a shape no page has; `code` is the API error code."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class OcrBusy(Exception):
    """Every OCR slot stayed taken for the whole allowed wait (or too many were waiting)."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"OCR is busy; retry in {retry_after_s} s")
        self.retry_after_s = retry_after_s
