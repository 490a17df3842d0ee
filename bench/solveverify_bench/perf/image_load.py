"""`bench load --images`: memory and fairness under concurrent large uploads.

A small PNG that decodes to ~36 Mpx (a page of text on a huge white canvas: it compresses to
tens of KB) is uploaded by N clients at once to a real `serve`; the server's RSS is sampled
throughout, then again after the burst, once the process had a moment to give memory back.
"""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from solveverify_bench.images import font
from solveverify_bench.perf.load import RssSampler, rss_mb, run_upload_load
from solveverify_bench.perf.stack import serve, stop


def large_page_png(side: int = 6000, text: str = "Solve 2x + 3 = 11") -> bytes:
    """side × side pixels (36 Mpx at 6000), greyscale, compressing to a few tens of KB."""
    canvas = Image.new("L", (side, side), 255)
    ImageDraw.Draw(canvas).text((side // 10, side // 3), text, fill=0, font=font(side // 25))
    buffer = io.BytesIO()
    canvas.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


async def run_image_load_test(
    clients: int, requests: int, side: int = 6000, settle_s: float = 3.0
) -> dict[str, Any]:
    image = large_page_png(side)
    with tempfile.TemporaryDirectory(prefix="solveverify-images-") as tmp:
        directory = Path(tmp)
        env = {
            "SOLVEVERIFY_DATABASE_URL": f"sqlite+aiosqlite:///{directory / 'load.db'}",
            "SOLVEVERIFY_LLAMACPP_ENABLED": "false",
            "SOLVEVERIFY_RETRIEVAL_LOAD_ON_START": "false",
            "SOLVEVERIFY_LOG_LEVEL": "WARNING",
        }
        server, base = serve(directory, env)
        try:
            await run_upload_load(base, image, concurrency=1, requests=1)  # OCR models loaded
            await asyncio.sleep(settle_s)
            before = rss_mb(server.pid)
            async with RssSampler(server.pid) as sampler:
                result = await run_upload_load(base, image, concurrency=clients, requests=requests)
                await asyncio.sleep(settle_s)
            after = rss_mb(server.pid)
        finally:
            stop(server)
    return {
        **result.summary(),
        "image_bytes": len(image),
        "image_pixels": side * side,
        "server_rss_before_mb": before,
        "server_rss_peak_mb": sampler.peak_mb,
        "server_rss_after_mb": after,
        "rejected_503": result.statuses.get(503, 0),
    }
