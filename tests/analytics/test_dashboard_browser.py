"""/dashboard in real headless Chromium (Debian `chromium`, installed by .ci/run)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

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


def test_dashboard_renders_charts(tmp_path: Path) -> None:
    assert CHROMIUM is not None
    process, base = serve(tmp_path, {})
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
            [*common, f"--screenshot={shot}", "--window-size=900,1100", f"{base}/dashboard"],
            capture_output=True,
            timeout=120,
            check=True,
        )
    finally:
        stop(process)
    assert "Verified rate by provider and subject" in dom
    assert dom.count('class="bar"') >= 1 and "symbolic" in dom
    # Each bar's sample count is visible text (a <text> element), not only a tooltip.
    counts = re.findall(r'<text class="count"[^>]*>([^<]*)</text>', dom)
    assert len(counts) >= dom.count('class="bar"') and "100% · n=2" in counts, counts
    image = Image.open(shot).convert("RGB")
    pixels = np.asarray(image.resize((300, 366)), dtype=int)
    blue = int(((pixels[..., 2] > 150) & (pixels[..., 0] < 80)).sum())
    assert blue > 50, "no chart bars visible in the screenshot"
