"""GET /v1/solutions/{id}: the answer with every verdict and the deep evaluation."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import SessionDep
from app.api.openapi_docs import errors
from app.api.params import SolutionId
from app.auth.caller import Caller
from app.errors import NotFound
from app.scans.repository import ScanRepository
from app.scans.service import solution_detail
from app.solutions.schemas import SolutionDetail

router = APIRouter(prefix="/v1/solutions", tags=["solutions"])


@router.get(
    "/{solution_id}",
    operation_id="getSolution",
    response_model=SolutionDetail,
    responses=errors(401, 404, 422, 429),
)
async def get_solution(
    solution_id: SolutionId, session: SessionDep, caller: Caller
) -> SolutionDetail:
    """The solution with every verdict, its deep evaluation and its badge history."""
    solution = await ScanRepository(session).get_tenant_solution(
        solution_id, caller.tenant, user_id=caller.user_id
    )
    if solution is None:
        raise NotFound("solution", solution_id)
    return solution_detail(solution)
