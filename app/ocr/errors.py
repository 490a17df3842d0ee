"""Why an image could not be read: the caller's fault (413, 422) or a full OCR queue (503)."""

from __future__ import annotations

from typing import Literal, get_args

from app.errors import DomainError
from app.schemas.common import ErrorCode

UnreadableImageCode = Literal["corrupt_image", "image_aspect_ratio"]


class ImageUnreadable(DomainError):
    """Truncated, corrupt, or a shape no page has."""

    status = 422
    codes = get_args(UnreadableImageCode)

    def __init__(self, code: UnreadableImageCode, message: str) -> None:
        super().__init__(message, code=code)


class ImageTooLarge(DomainError):
    """More pixels than the limit, read from the header before anything is decoded."""

    status = 413
    code: ErrorCode = "image_too_large"

    def __init__(self, pixels: int, limit: int) -> None:
        super().__init__(f"image has {pixels} pixels; the limit is {limit}")
        self.pixels, self.limit = pixels, limit


class OcrBusy(DomainError):
    """Every OCR slot stayed taken for the whole allowed wait (or too many were waiting). The
    worker retries the job after `retry_after_s`; a request is told to (Retry-After)."""

    status = 503
    code: ErrorCode = "ocr_busy"

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(
            "too many images are being read right now; retry shortly",
            headers={"Retry-After": str(retry_after_s)},
        )
        self.retry_after_s = retry_after_s
