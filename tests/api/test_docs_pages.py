"""/docs and /redoc work offline: their pages name no other host, and every script, style and
icon they reference is served by the app itself (fastapi-offline's assets)."""

from __future__ import annotations

import re

import httpx
import pytest

_URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
_ABSOLUTE = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_docs_page_loads_its_assets_from_the_app(
    client: httpx.AsyncClient, page: str
) -> None:
    response = await client.get(page)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    html = response.text
    assert _ABSOLUTE.findall(html) == [], "a URL to another host"
    assets = _URL.findall(html)
    assert any(a.endswith(".js") for a in assets), assets
    if page == "/docs":
        assert any(a.endswith(".css") for a in assets), assets
    for asset in assets:
        assert asset.startswith("/"), asset
        fetched = await client.get(asset)
        assert fetched.status_code == 200, asset
        assert fetched.content, asset
    # The page fetches the contract it shows from the app too.
    assert "/openapi.json" in html
