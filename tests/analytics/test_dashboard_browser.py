"""/dashboard in real headless Chromium (Debian `chromium`, installed by .ci/run), over a
SQLite database seeded through the real write path (tests/analytics/seeding.py: 240 scans,
three providers, later corrections) plus two scans made through the API. The screenshot is
kept in $SOLVEVERIFY_TEST_ARTIFACTS when that is set (a CI artifacts folder)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

from app.db.migrate import upgrade_async
from app.db.session import open_sessionmaker
from app.settings import DatabaseSettings
from tests.analytics.seeding import seed
from tests.fixtures.processes import serve, stop

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"),
    reason="Debian chromium is not installed (.ci/run installs it)",
)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


async def _seeded(url: str) -> int:
    await upgrade_async(url)
    async with open_sessionmaker(DatabaseSettings(url=url)) as made, made() as session:
        rows = await seed(session)
    return sum(r.verified for r in rows)


def test_dashboard_renders_charts(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    url = f"sqlite+aiosqlite:///{tmp_path / 'dashboard.db'}"
    seeded_verified = asyncio.run(_seeded(url))
    process, base = serve(tmp_path, {"SOLVEVERIFY_DATABASE_URL": url})
    try:
        for text in ("Solve 2x + 3 = 11", "3/4 + 5/6 = ?"):
            assert (
                httpx.post(f"{base}/v1/scans", json={"text": text}, timeout=30).status_code == 201
            )
        common = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
        dom = subprocess.run(
            [*common, "--dump-dom", f"{base}/dashboard"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        shot = tmp_path / "dashboard.png"
        subprocess.run(
            [*common, f"--screenshot={shot}", "--window-size=1000,2400", f"{base}/dashboard"],
            capture_output=True,
            timeout=120,
            check=True,
        )
    finally:
        stop(process)
    artifacts = os.environ.get("SOLVEVERIFY_TEST_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(artifacts) / "dashboard.png")
    assert "Verified rate by provider and subject" in dom
    assert dom.count('class="bar"') >= 1 and "symbolic" in dom
    # The promise: verified answers (the seed's and the two symbolic ones), later found wrong
    # with its interval, the reliability diagram, coverage-precision, the table, the cost.
    verified = int(re.search(r'id="verified">(\d+)<', dom).group(1))  # type: ignore[union-attr]
    assert verified == seeded_verified + 2
    assert "Later found wrong" in dom and "95% CI" in dom
    assert dom.count('class="bin"') >= 4 and dom.count('class="threshold"') >= 4
    assert "Provider × subject × difficulty" in dom and "Cost per verified answer" in dom
    # No model is configured here: the page says the follow-up checks cannot run.
    assert "No model is configured" in dom
    # Each sample count is visible text (a <text> element), not only a tooltip, and a rate
    # over fewer than 10 is a count: the two symbolic answers are "2/2", never "100%".
    counts = re.findall(r'<text class="count"[^>]*>([^<]*)</text>', dom)
    assert len(counts) >= dom.count('class="bar"') and "2/2 · n=2" in counts, counts
    assert not any(c.startswith("100%") and int(c.rsplit("n=", 1)[1]) < 10 for c in counts)
    image = Image.open(shot).convert("RGB")
    pixels = np.asarray(image.resize((250, 600)), dtype=int)
    blue = int(((pixels[..., 2] > 150) & (pixels[..., 0] < 80)).sum())
    assert blue > 50, "no chart marks visible in the screenshot"
