"""POST /v1/tokens: the tenant's backend mints a short-lived token for one of its users, which
the user's browser or phone uses instead of the tenant key (app/auth/student_tokens.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request, status
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.api.errors import ApiError, parse_or_422
from app.api.openapi_docs import errors
from app.auth.caller import KeyHolder
from app.auth.schemas import TokenCreate, TokenOut

router = APIRouter(prefix="/v1/tokens", tags=["tokens"])

_OPENAPI_BODY = {
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TokenCreate"}}},
    }
}


@router.post(
    "",
    operation_id="createToken",
    status_code=status.HTTP_201_CREATED,
    response_model=TokenOut,
    openapi_extra=_OPENAPI_BODY,
    responses={
        201: {"description": "The token (shown once; not stored by the service)."},
        **errors(401, 403, 413, 415, 422, 429),
    },
)
async def create_token(request: Request, services: ServicesDep, minter: KeyHolder) -> JSONResponse:
    """Mint a token acting for one user of the key's tenant, for that user's browser or
    phone: it creates, reads, lists, streams and erases only that user's scans and checks,
    expires at `expires_at`, and stops working when the minting key is revoked. Needs the
    tenant's API key (a token cannot mint tokens)."""
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type and media_type != "application/json":
        raise ApiError(415, "unsupported_media_type", "send application/json with 'user_id'")
    body = parse_or_422(TokenCreate, await request.body())
    auth = services.settings.auth
    ttl_s = auth.token_ttl_s if body.ttl_s is None else body.ttl_s
    if ttl_s > auth.token_max_ttl_s:
        problem = f"at most {auth.token_max_ttl_s} seconds"
        raise ApiError(
            422,
            "invalid_request",
            f"ttl_s: {problem}",
            details=[{"field": "ttl_s", "problem": problem}],
        )
    token, expires = await services.authenticator.mint(minter, body.user_id, ttl_s)
    out = TokenOut(
        token=token, expires_at=datetime.fromtimestamp(expires, UTC), user_id=body.user_id
    )
    # A credential: no cache may keep it.
    return JSONResponse(
        out.model_dump(mode="json"),
        status_code=201,
        headers={"Cache-Control": "no-store", "Pragma": "no-cache"},
    )
