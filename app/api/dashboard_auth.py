"""/dashboard in a browser with auth on: a signed, expiring link (`solveverify dashboard-link`)
sets an HttpOnly cookie; or an analyst key typed into the login form does."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.analytics import queries
from app.analytics.dashboard import page
from app.api.calibration import calibration_of
from app.api.deps import ServicesDep, SessionDep
from app.auth import dashboard_tokens
from app.resources import Resources

router = APIRouter(tags=["analytics"], include_in_schema=False)
COOKIE = "solveverify_dashboard"


def _secret(services: Resources) -> str | None:
    secret = services.settings.api.dashboard_secret
    return secret.get_secret_value() if secret else None


def _login_page(message: str = "") -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard login'
        "</title></head><body><h1>SolveVerify dashboard</h1>"
        f"<p>{message}</p>"
        '<form method="post" action="/dashboard/login"><label>Analyst API key '
        '<input type="password" name="api_key" autocomplete="off"></label>'
        "<button>Open</button></form></body></html>"
    )


@router.get("/dashboard", response_class=HTMLResponse)
async def dashboard(
    request: Request, services: ServicesDep, session: SessionDep, token: str | None = None
) -> Response:
    secret, ttl = _secret(services), services.settings.api.dashboard_link_ttl_s
    if token is not None and dashboard_tokens.verify(secret, token):
        # Move the token out of the URL (history, referrers) into an HttpOnly cookie.
        response = RedirectResponse("/dashboard", status_code=303)
        _set_cookie(response, dashboard_tokens.sign(secret, ttl), ttl)
        return response
    if services.settings.auth.required:
        cookie = request.cookies.get(COOKIE)
        allowed = cookie is not None and dashboard_tokens.verify(secret, cookie)
        if not allowed and not await _bearer_is_analyst(request, services):
            return HTMLResponse(_login_page(), status_code=401)
    html = page(
        await queries.accuracy_all_tenants(session),
        await queries.daily_trend(session),
        await queries.suggestions(session, 10),
        services.registry.preferred,
        calibration_of(services),
    )
    return HTMLResponse(html)


@router.post("/dashboard/login")
async def login(services: ServicesDep, api_key: Annotated[str, Form()]) -> Response:
    principal = await services.authenticator.principal(api_key)
    if principal is None or not principal.is_analyst:
        return HTMLResponse(_login_page("That key is not an analyst key."), status_code=401)
    ttl = services.settings.api.dashboard_link_ttl_s
    response = RedirectResponse("/dashboard", status_code=303)
    _set_cookie(response, dashboard_tokens.sign(_secret(services), ttl), ttl)
    return response


def _set_cookie(response: Response, value: str, ttl: int) -> None:
    response.set_cookie(
        COOKIE, value, max_age=ttl, httponly=True, samesite="strict", path="/dashboard"
    )


async def _bearer_is_analyst(request: Request, services: Resources) -> bool:
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("bearer "):
        return False
    principal = await services.authenticator.principal(header[7:].strip())
    return principal is not None and principal.is_analyst
