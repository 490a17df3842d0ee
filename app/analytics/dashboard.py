"""/dashboard: one self-contained HTML page with SVG charts (no scripts, no CDN)."""

from __future__ import annotations

from html import escape
from typing import Any

from app.schemas.calibration import CalibrationOut

WIDTH, HEIGHT, PAD = 640, 260, 40
COLORS = ["#2f6db5", "#e07b39", "#3a9d5d", "#b5443a", "#7a5cb5", "#8c8c8c"]


def bar_chart(rows: list[dict[str, Any]], title: str) -> str:
    """Verified rate of the returned answers per provider × model × subject, one bar each
    (`queries.accuracy_all_tenants`); the tooltip also gives every attempt judged."""
    if not rows:
        return _empty(title)
    providers = sorted({r["provider"] for r in rows})
    bar = min(60, max(8, (WIDTH - 2 * PAD) // max(1, len(rows)) - 6))
    parts = []
    for i, row in enumerate(rows):
        height = (HEIGHT - 2 * PAD) * float(row["verified_rate"] or 0)
        x = PAD + i * (bar + 6)
        y = HEIGHT - PAD - height
        color = COLORS[providers.index(row["provider"]) % len(COLORS)]
        rate = float(row["verified_rate"] or 0)
        label = (
            f"{row['provider']} ({row['model']}) · {row['subject']}: {rate:.0%} of {row['n']} "
            f"returned, {row.get('attempts', row['n'])} attempts"
        )
        parts.append(
            f'<rect class="bar" x="{x}" y="{y:.1f}" width="{bar}" height="{height:.1f}" '
            f'fill="{color}"><title>{escape(label)}</title></rect>'
        )
        parts.append(
            f'<text x="{x + bar / 2}" y="{HEIGHT - PAD + 14}" font-size="10" '
            f'text-anchor="middle">{escape(str(row["subject"]))}</text>'
        )
        # The sample count is printed, not only in the tooltip: 100% of 2 is not 100% of 2,000.
        parts.append(_count_label(x + bar / 2, y, rate, int(row["n"])))
    legend = "".join(
        f'<span style="color:{COLORS[i % len(COLORS)]}">■ {escape(p)}</span> '
        for i, p in enumerate(providers)
    )
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
        f'{_axes()}{"".join(parts)}</svg><div class="legend">{legend}</div></figure>'
    )


def line_chart(rows: list[dict[str, Any]], title: str) -> str:
    """Daily verified rate."""
    if not rows:
        return _empty(title)
    step = (WIDTH - 2 * PAD) / max(1, len(rows) - 1)
    points = [
        (PAD + i * step, HEIGHT - PAD - (HEIGHT - 2 * PAD) * float(r["verified_rate"] or 0))
        for i, r in enumerate(rows)
    ]
    path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLORS[0]}">'
        f"<title>{escape(str(r['day']))}: {float(r['verified_rate'] or 0):.0%} of "
        f"{r['n']}</title></circle>"
        + _count_label(x, y - 4, float(r["verified_rate"] or 0), int(r["n"]))
        for (x, y), r in zip(points, rows, strict=True)
    )
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">'
        f'{_axes()}<polyline class="line" points="{path}" fill="none" stroke="{COLORS[0]}" '
        f'stroke-width="2"/>{dots}</svg></figure>'
    )


def _count_label(x: float, top: float, rate: float, n: int) -> str:
    """Rate and sample count as visible text just above a bar or point."""
    return (
        f'<text class="count" x="{x:.1f}" y="{top - 4:.1f}" font-size="9" '
        f'text-anchor="middle">{rate:.0%} · n={n}</text>'
    )


def _empty(title: str) -> str:
    caption = f"<figcaption>{escape(title)}</figcaption>"
    return f'<figure>{caption}<p class="empty">No data yet.</p></figure>'


def _axes() -> str:
    return (
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" '
        f'stroke="#444"/><line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" '
        f'stroke="#444"/><text x="4" y="{PAD + 4}" font-size="10">100%</text>'
        f'<text x="12" y="{HEIGHT - PAD}" font-size="10">0%</text>'
    )


def _number(value: float | None, spec: str = ".3f") -> str:
    return "—" if value is None else format(value, spec)


def calibration_panel(calibration: CalibrationOut | None) -> str:
    """What `verified` promises now: the fitted threshold and the evidence behind it."""
    if calibration is None or not calibration.fitted:
        return (
            '<section class="calibration"><h2>Precision promise</h2><p class="empty">'
            "No fitted calibrator yet: model evidence verifies at the raw threshold "
            "(uncalibrated).</p></section>"
        )
    c = calibration
    threshold = _number(c.threshold) if c.threshold is not None else "none (only proofs verify)"
    rows = [
        ("Threshold (calibrated P(correct))", threshold),
        ("Target precision", f"{c.target_precision:.0%} with confidence {c.confidence:.0%}"),
        ("Evidence (held-out outcomes)", str(c.evidence)),
        ("Precision lower bound", _number(c.precision_lower_bound)),
        ("ECE / Brier", f"{_number(c.ece)} / {_number(c.brier)}"),
        ("Fitted on", f"{c.n_samples} outcomes, {c.fitted_at or '—'}"),
        ("Labels by source", ", ".join(f"{k} {v}" for k, v in sorted(c.sources.items()))),
    ]
    cells = "".join(f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in rows)
    return (
        f'<section class="calibration"><h2>Precision promise</h2><table>{cells}</table></section>'
    )


def page(
    accuracy: list[dict],
    trend: list[dict],
    suggestions: list[dict],
    routing: dict[str, str],
    calibration: CalibrationOut | None = None,
) -> str:
    items = "".join(
        f"<li>{escape(str(s['suggestion']))} <small>×{s['n']}</small></li>" for s in suggestions
    )
    listing = f"<ol>{items}</ol>" if items else '<p class="empty">No suggestions yet.</p>'
    table = "".join(
        f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in sorted(routing.items())
    ) or ('<tr><td colspan="2" class="empty">Static order (not enough data yet)</td></tr>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SolveVerify dashboard</title>
<style>body{{font-family:system-ui,sans-serif;margin:2rem;color:#222}}
figure{{margin:1rem 0}}figcaption{{font-weight:600;margin-bottom:.3rem}}
.empty{{color:#888}}table{{border-collapse:collapse}}td{{border:1px solid #ccc;padding:.2rem .6rem}}
</style></head><body>
<h1>SolveVerify</h1>
{bar_chart(accuracy, "Verified rate by provider and subject")}
{line_chart(trend, "Daily verified rate")}
{calibration_panel(calibration)}
<h2>Routing</h2><table>{table}</table>
<h2>Most frequent improvement suggestions</h2>{listing}
</body></html>"""
