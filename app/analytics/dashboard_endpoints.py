"""/dashboard in a browser with auth on: a signed, expiring link (`solveverify dashboard-link`)
or a platform key typed into the login form sets an HttpOnly cookie. The page spans every
tenant, so an analyst key (scoped to its tenant) does not open it.

Like a bank's session, not a convenience:
- a link carries its token in the URL fragment (`/dashboard#token=...`), which browsers never
  send, so it is in no access log, proxy log or Referer; the login page's script POSTs it to
  /dashboard/session;
- a session lives exactly as long as the token it was opened with: the cookie holds that same
  token, and nothing exchanges a valid token for a fresher one;
- the cookie is HttpOnly, SameSite=Strict, path /dashboard, and Secure over HTTPS
  (`dashboard_cookie_secure`);
- both POSTs refuse other origins (a cross-site form cannot log a browser in or out), and
  their failures are counted with the API's failed authentications per address (429 beyond).
"""

from __future__ import annotations

import time
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.analytics import queries
from app.analytics.dashboard import page
from app.api.deps import ServicesDep, SessionDep
from app.auth import dashboard_tokens
from app.auth.caller import count_failed_auth, open_to_anonymous
from app.calibration.endpoints import calibration_of
from app.resources import Resources

router = APIRouter(tags=["analytics"], include_in_schema=False)
COOKIE = "solveverify_dashboard"
# Longer than any token or key we issue; a form field is parsed before this is checked.
_MAX_FIELD_CHARS = 200

# Sends a link's token (the URL fragment, never sent to the server) by POST, once, and takes
# it out of the address bar and history.
_LINK_EXCHANGE = (
    '<form id="link" method="post" action="/dashboard/session" hidden>'
    '<input type="hidden" name="token"></form><script>'
    'if (location.hash.indexOf("#token=") === 0) {'
    'var form = document.getElementById("link");'
    "form.token.value = decodeURIComponent(location.hash.slice(7));"
    'history.replaceState(null, "", location.pathname);'
    "form.submit();}</script>"
)


async def _secret(services: Resources) -> str:
    """The same in every server process (configured, or kept in the database): a cookie set
    by one process opens the dashboard on all of them."""
    return await services.dashboard_secret.get()


def _login_page(message: str = "") -> str:
    # Referrer policy "same-origin", not "no-referrer": under the latter Chromium sends
    # `Origin: null` with the form POSTs, which the origin check must refuse.
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard login'
        '</title><meta name="referrer" content="same-origin"></head><body>'
        f"<h1>SolveVerify dashboard</h1><p>{message}</p>"
        '<form method="post" action="/dashboard/login"><label>Platform API key '
        '<input type="password" name="api_key" autocomplete="off"></label>'
        f"<button>Open</button></form>{_LINK_EXCHANGE}</body></html>"
    )


_SEND_ONCE = "Send each field of the form once."


async def _sent_twice(request: Request) -> bool:
    """A form field sent twice: which `api_key` was meant? Never the last one silently."""
    form = await request.form()  # already read (and capped) for the route's Form() fields
    return any(len(form.getlist(name)) > 1 for name in set(form.keys()))


def _refusal(status: int, message: str, retry_after: float | None = None) -> HTMLResponse:
    headers = {"Retry-After": str(int(retry_after))} if retry_after is not None else None
    return HTMLResponse(_login_page(message), status_code=status, headers=headers)


@router.get("/dashboard", response_class=HTMLResponse)
async def dashboard(request: Request, services: ServicesDep, session: SessionDep) -> Response:
    # A `?token=` is not looked at: a token in a URL ends up in logs (links use the fragment).
    if not await open_to_anonymous(services):
        cookie = request.cookies.get(COOKIE)
        allowed = cookie is not None and await _session_open(services, cookie)
        if not allowed and not await _bearer_sees_every_tenant(request, services):
            # A credential that failed counts like the API's (a bare visit does not).
            sent = cookie is not None or "authorization" in request.headers
            if sent and (throttled := await _failed(request, services)):
                return throttled
            return HTMLResponse(_login_page(), status_code=401)
    html = page(
        await queries.accuracy_all_tenants(session),
        await queries.daily_trend(session),
        await queries.suggestions(session, 10),
        services.registry.preferred,
        calibration_of(services),
        promise=await queries.promise(session),
        bins=await queries.calibration_bins(session),
        table=await queries.quality_table(session),
        cost=await queries.cost_per_verified(session),
        followups=any(name not in queries.NOT_MODELS for name in services.registry.order),
    )
    return HTMLResponse(html)


@router.post("/dashboard/session")
async def open_session(
    request: Request, services: ServicesDep, token: Annotated[str, Form()] = ""
) -> Response:
    """Exchange a link's token for the session cookie, keeping the token's own expiry."""
    if not same_origin(request):
        return _refusal(403, "This form only works from this server's own page.")
    if await _sent_twice(request):
        return _refusal(422, _SEND_ONCE)
    secret = await _secret(services)
    if len(token) > _MAX_FIELD_CHARS or not dashboard_tokens.verify(secret, token):
        return await _failed(request, services) or _refusal(
            401, "That link is invalid or has expired."
        )
    return _opened(request, services, token)


@router.post("/dashboard/login")
async def login(
    request: Request, services: ServicesDep, api_key: Annotated[str, Form()] = ""
) -> Response:
    if not same_origin(request):
        return _refusal(403, "This form only works from this server's own page.")
    if await _sent_twice(request):
        return _refusal(422, _SEND_ONCE)
    principal = (
        await services.authenticator.principal(api_key)
        if len(api_key) <= _MAX_FIELD_CHARS
        else None
    )
    if principal is None or not principal.sees_every_tenant:
        # Checked first, counted after: a valid key is never refused for its address.
        return await _failed(request, services) or _refusal(401, "That key is not a platform key.")
    ttl_s = services.settings.api.dashboard_link_ttl_s
    token = dashboard_tokens.sign(await _secret(services), ttl_s, key_id=principal.key_id)
    return _opened(request, services, token)


async def _session_open(services: Resources, cookie: str) -> bool:
    """A valid, unexpired session cookie, whose platform key (when it names one) is still
    active: revoking the key ends its sessions within the key cache's time, as its requests."""
    session = dashboard_tokens.read(await _secret(services), cookie)
    if session is None:
        return False
    if session.key_id is None:
        return True
    key = await services.authenticator.active_key(session.key_id)
    return key is not None and key.sees_every_tenant


def _opened(request: Request, services: Resources, token: str) -> Response:
    response = RedirectResponse("/dashboard", status_code=303)
    secure = services.settings.api.dashboard_cookie_secure
    response.set_cookie(
        COOKIE,
        token,
        max_age=max(1, dashboard_tokens.expires_at(token) - int(time.time())),
        httponly=True,
        samesite="strict",
        path="/dashboard",
        secure=secure == "always" or (secure == "auto" and request.url.scheme == "https"),
    )
    return response


def same_origin(request: Request) -> bool:
    """The POST comes from a page of this server. Browsers send Origin with every form POST
    (Referer as a fallback); a request with neither is not a browser's cross-site form."""
    claimed = request.headers.get("origin") or _origin_of(request.headers.get("referer"))
    if claimed is None:
        return request.headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    return claimed == f"{request.url.scheme}://{request.url.netloc}"


def _origin_of(url: str | None) -> str | None:
    if not url:
        return None
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None


async def _failed(request: Request, services: Resources) -> Response | None:
    """Count a failed credential with the API's failed authentications per address: the 429
    once over the limit, else None (the caller answers 401)."""
    retry_after = await count_failed_auth(request, services)
    if retry_after is None:
        return None
    return _refusal(429, "Too many failed attempts; wait a minute.", retry_after)


async def _bearer_sees_every_tenant(request: Request, services: Resources) -> bool:
    if len(request.headers.getlist("authorization")) > 1:
        return False  # which one would act? Neither, not the first silently
    header = request.headers.get("authorization", "")
    if not header.lower().startswith("bearer "):
        return False
    principal = await services.authenticator.principal(header[7:].strip())
    return principal is not None and principal.sees_every_tenant
