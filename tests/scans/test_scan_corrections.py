"""A text scan that corrects a photo scan (issue 24): `corrects_scan_id` on the JSON body names
the photo whose reading the student corrected; it is stored on the scan and returned by POST
and GET. Only a photo scan of the caller's tenant, and of the same user when that scan has
one, may be named: anything else is 404 (or 422 for a text scan), in the error envelope."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Scan
from app.db.models._columns import utcnow
from solveverify_bench.math_photos import PhotoStyle, render_math
from tests.fixtures.polling import until_final

SUM = render_math(r"\sum_{i=1}^{3} i", PhotoStyle(size=36))
CORRECTION = "Compute 1 + 2 + 3"


async def photo_row(
    session: AsyncSession, *, tenant: str | None = None, user_id: str | None = None
) -> uuid.UUID:
    """A photo scan as stored (the OCR's part is covered in tests/ocr)."""
    scan = Scan(
        id=uuid.uuid4(),
        created_at=utcnow(),
        tenant=tenant,
        user_id=user_id,
        source="image",
        problem_text="x=3",
        subject="math",
        grade_band="primary",
        difficulty="easy",
        language="en",
        topics=[],
    )
    session.add(scan)
    await session.flush()
    return scan.id


def correcting(scan_id: uuid.UUID | str, **fields: Any) -> dict[str, Any]:
    return {"text": CORRECTION, "corrects_scan_id": str(scan_id), **fields}


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code and isinstance(error["message"], str) and error["message"]


async def test_a_text_scan_corrects_the_photo_it_names(client: httpx.AsyncClient) -> None:
    photo = await client.post("/v1/scans", files={"image": ("p.png", SUM, "image/png")})
    assert photo.status_code == 201, photo.text
    assert photo.json()["caution_reason"]["code"] == "incomplete_reading"
    photo_id = photo.json()["scan_id"]

    response = await client.post("/v1/scans", json=correcting(photo_id))
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["corrects_scan_id"] == photo_id
    assert body["verification_status"] == "verified" and body["final_answer"] == "6"
    scan = (await client.get(f"/v1/scans/{body['scan_id']}")).json()
    assert scan["corrects_scan_id"] == photo_id
    assert scan["solution"]["corrects_scan_id"] == photo_id
    detail = (await client.get(f"/v1/solutions/{body['solution_id']}")).json()
    assert detail["corrects_scan_id"] == photo_id
    # The photo itself names nothing; scans that name nothing say so.
    assert (await client.get(f"/v1/scans/{photo_id}")).json()["corrects_scan_id"] is None
    plain = await client.post("/v1/scans", json={"text": CORRECTION})
    assert plain.json()["corrects_scan_id"] is None


async def test_a_scan_that_does_not_exist_is_404(client: httpx.AsyncClient) -> None:
    assert_error(await client.post("/v1/scans", json=correcting(uuid.uuid4())), 404, "not_found")


async def test_another_tenants_photo_is_404(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    theirs = await photo_row(session, tenant="another-school")
    assert_error(await client.post("/v1/scans", json=correcting(theirs)), 404, "not_found")


async def test_a_photo_bound_to_a_user_is_corrected_by_that_user_only(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    photo = await photo_row(session, user_id="student-a")
    for other in ({"user_id": "student-b"}, {}):
        response = await client.post("/v1/scans", json=correcting(photo, **other))
        assert_error(response, 404, "not_found")
    same = await client.post("/v1/scans", json=correcting(photo, user_id="student-a"))
    assert same.status_code == 201 and same.json()["corrects_scan_id"] == str(photo)
    # A photo bound to no user: any user of the tenant may correct it.
    unbound = await photo_row(session)
    anyone = await client.post("/v1/scans", json=correcting(unbound, user_id="student-b"))
    assert anyone.status_code == 201 and anyone.json()["corrects_scan_id"] == str(unbound)


async def test_a_text_scan_is_not_a_photo_to_correct(client: httpx.AsyncClient) -> None:
    text_scan = (await client.post("/v1/scans", json={"text": "2 + 2"})).json()["scan_id"]
    response = await client.post("/v1/scans", json=correcting(text_scan))
    assert_error(response, 422, "not_a_photo")


@pytest.mark.parametrize("value", ["not-a-uuid", 12, ""])
async def test_a_malformed_id_is_422(client: httpx.AsyncClient, value: Any) -> None:
    response = await client.post("/v1/scans", json={"text": CORRECTION, "corrects_scan_id": value})
    assert_error(response, 422, "invalid_request")
    assert response.json()["error"]["details"][0]["field"] == "corrects_scan_id"


async def test_only_text_scans_name_a_photo(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    photo = await photo_row(session)
    response = await client.post(
        "/v1/scans",
        files={"image": ("p.png", SUM, "image/png")},
        data={"corrects_scan_id": str(photo)},
    )
    assert response.status_code == 422, response.text
    assert "error" in response.json()


async def test_queued_correction_keeps_the_link_and_erase_empties_it(
    live: httpx.AsyncClient,
) -> None:
    """With the app committing for real: the link survives the queue and the worker, and
    erasing the photo leaves the correction (its own data) without the reference."""
    photo = await live.post("/v1/scans", files={"image": ("p.png", SUM, "image/png")})
    photo_id = photo.json()["scan_id"]
    queued = await live.post(
        "/v1/scans", json=correcting(photo_id), headers={"Prefer": "respond-async"}
    )
    assert queued.status_code == 202, queued.text
    scan = await until_final(live, queued.headers["location"])
    assert scan["state"] == "done" and scan["corrects_scan_id"] == photo_id
    assert scan["solution"]["corrects_scan_id"] == photo_id

    assert (await live.delete(f"/v1/scans/{photo_id}")).status_code == 204
    after = (await live.get(queued.headers["location"])).json()
    assert after["corrects_scan_id"] is None and after["solution"]["final_answer"] == "6"
    assert (await live.delete(queued.headers["location"])).status_code == 204


async def test_the_idempotency_key_covers_the_scan_named(live: httpx.AsyncClient) -> None:
    photo = await live.post("/v1/scans", files={"image": ("p.png", SUM, "image/png")})
    photo_id = photo.json()["scan_id"]
    key = {"Idempotency-Key": uuid.uuid4().hex}
    first = await live.post("/v1/scans", json=correcting(photo_id), headers=key)
    assert first.status_code == 201, first.text
    replay = await live.post("/v1/scans", json=correcting(photo_id), headers=key)
    assert replay.headers.get("idempotent-replayed") == "true"
    other = await live.post("/v1/scans", json={"text": CORRECTION}, headers=key)
    assert other.status_code == 409  # the same key for another request
    for scan_id in (first.json()["scan_id"], photo_id):
        assert (await live.delete(f"/v1/scans/{scan_id}")).status_code == 204
