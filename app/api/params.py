"""Path parameters shared by several routes, documented once (description and example)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path

ScanId = Annotated[
    uuid.UUID,
    Path(
        description="The scan's id (`scan_id` of the POST response).",
        examples=["3f8a2c4e-9b1d-4c6e-8f2a-1b3c5d7e9f01"],
    ),
]
SolutionId = Annotated[
    uuid.UUID,
    Path(
        description="The solution's id (`solution_id` of a SolutionResponse).",
        examples=["7d1e5b3a-2c4f-4e6a-9b8d-0f1e2d3c4b5a"],
    ),
]
CheckId = Annotated[
    uuid.UUID,
    Path(
        description="The stored check's id (`check_id` of a POST /v1/checks response with steps).",
        examples=["3f1c2a9e-6b7d-4c1e-9a55-0d2e8f4b7c61"],
    ),
]
