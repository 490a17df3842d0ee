"""/dashboard: one self-contained HTML page with SVG charts (no scripts, no CDN)."""

from __future__ import annotations

import math
from html import escape
from typing import Any

from app.calibration.schemas import CalibrationOut

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
    """Rate and sample count as visible text just above a bar or point; under `SMALL` a
    count ("2/2"), never a bare percentage (100% of 2 is not 100% of 2,000)."""
    return (
        f'<text class="count" x="{x:.1f}" y="{top - 4:.1f}" font-size="9" '
        f'text-anchor="middle">{share(rate, n)} · n={n}</text>'
    )


# Below this many, a rate is shown as a count (k/n) and greyed, never as a percentage.
SMALL = 10


def share(rate: float | None, n: int) -> str:
    if rate is None or n == 0:
        return "—"
    if n < SMALL:
        return f"{round(rate * n)}/{n}"
    return f"{rate:.0%}"


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float] | None:
    """The 95% Wilson score interval of k successes in n (None when n is 0)."""
    if n == 0:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _interval(k: int, n: int) -> str:
    bounds = wilson(k, n)
    return "" if bounds is None else f"95% CI {bounds[0]:.1%}–{bounds[1]:.1%}"


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


def promise_panel(counts: dict[str, int], followups: bool = True) -> str:
    """Verified answers and how many were later found wrong, with its 95% interval."""
    verified, wrong = counts.get("verified", 0), counts.get("later_found_wrong", 0)
    answered, scans = counts.get("answered", 0), counts.get("scans", 0)
    rate = share(wrong / verified if verified else None, verified)
    interval = _interval(wrong, verified)
    note = (
        ""
        if followups
        else '<p class="warning">No model is configured: the follow-up checks (consensus, '
        "spot checks, MARS) do not run, so no answer given now can be found wrong later: "
        "the count below cannot grow, whatever the answers are.</p>"
    )
    return (
        '<section class="promise"><h2>The promise: verified means right</h2>'
        f"{note}<table>"
        f'<tr><td>Verified at response</td><td class="num" id="verified">{verified}</td>'
        f"<td>of {answered} answered ({scans} scans)</td></tr>"
        f'<tr><td>Later found wrong</td><td class="num" id="found-wrong">{wrong}</td>'
        f"<td>{escape(rate)} of the verified · {escape(interval)}</td></tr>"
        "</table></section>"
    )


SIDE = 300
PLOT = 230


def _plot_frame(x_label: str, y_label: str) -> str:
    o = (SIDE - PLOT) / 2
    return (
        f'<rect x="{o}" y="{o}" width="{PLOT}" height="{PLOT}" fill="none" stroke="#444"/>'
        f'<text x="{SIDE / 2}" y="{SIDE - 4}" font-size="10" text-anchor="middle">'
        f"{escape(x_label)}</text>"
        f'<text x="10" y="{SIDE / 2}" font-size="10" text-anchor="middle" '
        f'transform="rotate(-90 10 {SIDE / 2})">{escape(y_label)}</text>'
        f'<text x="{o}" y="{o + PLOT + 12}" font-size="9">0</text>'
        f'<text x="{o + PLOT}" y="{o + PLOT + 12}" font-size="9" text-anchor="end">1</text>'
        f'<text x="{o - 4}" y="{o + 4}" font-size="9" text-anchor="end">1</text>'
    )


def _xy(x: float, y: float) -> tuple[float, float]:
    o = (SIDE - PLOT) / 2
    return o + PLOT * x, o + PLOT * (1 - y)


def reliability_diagram(bins: list[dict[str, Any]]) -> str:
    """Observed accuracy against mean stated confidence per tenth of confidence; the
    diagonal is perfect calibration. A bin of fewer than SMALL answers is drawn hollow."""
    title = "Reliability: stated confidence vs later outcome"
    if not bins:
        return _empty(title + " (no answer has a known later outcome yet)")
    (x0, y0), (x1, y1) = _xy(0, 0), _xy(1, 1)
    parts = [f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#bbb" stroke-dasharray="4"/>']
    for i, b in enumerate(bins):
        n = int(b["judged"])
        x, y = _xy(float(b["mean_confidence"]), float(b["observed_accuracy"]))
        small = n < SMALL
        fill = "none" if small else COLORS[0]
        parts.append(
            f'<circle class="bin" cx="{x:.1f}" cy="{y:.1f}" r="{4 if small else 5}" '
            f'fill="{fill}" stroke="{COLORS[0]}"><title>confidence {b["mean_confidence"]:.2f}'
            f": {b['judged_right']}/{n} right</title></circle>"
            # alternate sides, so neighbouring bins' labels do not overprint
            f'<text class="count" x="{x + (7 if i % 2 else -7):.1f}" y="{y + 3 + 9 * (i % 3):.1f}" '
            f'font-size="9" text-anchor="{"start" if i % 2 else "end"}">'
            f"{share(float(b['observed_accuracy']), n)} · n={n}</text>"
        )
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg class="chart reliability" viewBox="0 0 {SIDE} {SIDE}" width="{SIDE}" '
        f'height="{SIDE}">{_plot_frame("mean stated confidence", "share right later")}'
        f"{''.join(parts)}</svg></figure>"
    )


def coverage_precision_points(bins: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each bin's lower edge as a threshold: the judged answers at or above it (coverage,
    over every judged answer) and the share of them right (precision)."""
    total = sum(int(b["judged"]) for b in bins)
    points, judged, right = [], 0, 0
    for b in sorted(bins, key=lambda b: -int(b["bin"])):
        judged += int(b["judged"])
        right += int(b["judged_right"])
        points.append(
            {
                "threshold": int(b["bin"]) / 10,
                "judged": judged,
                "right": right,
                "coverage": judged / total,
                "precision": right / judged,
            }
        )
    return points


def coverage_precision(bins: list[dict[str, Any]]) -> str:
    title = "Coverage vs precision (threshold on stated confidence)"
    points = coverage_precision_points(bins)
    if not points:
        return _empty(title + " (no answer has a known later outcome yet)")
    xy = [_xy(p["coverage"], p["precision"]) for p in points]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    dots = "".join(
        f'<circle class="threshold" cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLORS[1]}">'
        f"<title>confidence ≥ {p['threshold']:.1f}: {p['right']}/{p['judged']} right"
        f"</title></circle>"
        f'<text class="count" x="{x + 5:.1f}" y="{y - 4:.1f}" font-size="9">'
        f"≥{p['threshold']:.1f}: {share(p['precision'], p['judged'])} · n={p['judged']}</text>"
        for (x, y), p in zip(xy, points, strict=True)
    )
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg class="chart coverage" viewBox="0 0 {SIDE} {SIDE}" width="{SIDE}" '
        f'height="{SIDE}">{_plot_frame("coverage (share of judged answers)", "precision")}'
        f'<polyline points="{line}" fill="none" stroke="{COLORS[1]}" stroke-width="2"/>'
        f"{dots}</svg></figure>"
    )


def quality_table(rows: list[dict[str, Any]]) -> str:
    """Provider × subject × difficulty: answers, verified, later found wrong, precision with
    its interval, judged accuracy; small samples as counts, greyed."""
    title = "Provider × subject × difficulty"
    if not rows:
        return _empty(title)
    body = []
    for r in rows:
        verified, wrong = int(r["verified"]), int(r["later_found_wrong"])
        judged, right = int(r["judged"]), int(r["judged_right"])
        precision = (verified - wrong) / verified if verified else None
        accuracy = right / judged if judged else None
        small = ' class="small"' if verified < SMALL else ""
        cells = [
            escape(str(r["provider"])),
            escape(str(r["subject"])),
            escape(str(r["difficulty"])),
            str(r["answered"]),
            str(verified),
            str(wrong),
            f"{escape(share(precision, verified))} <small>{_interval(verified - wrong, verified)}"
            "</small>",
            f"{escape(share(accuracy, judged))} <small>n={judged}</small>",
        ]
        body.append(f"<tr{small}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "provider",
            "subject",
            "difficulty",
            "answered",
            "verified",
            "found wrong",
            "verified precision",
            "judged accuracy",
        )
    )
    return (
        f'<figure><figcaption>{title}</figcaption><table class="quality"><tr>{head}</tr>'
        f"{''.join(body)}</table></figure>"
    )


def cost_table(rows: list[dict[str, Any]]) -> str:
    title = "Cost per verified answer"
    if not rows:
        return _empty(title)
    body = "".join(
        f"<tr><td>{escape(str(r['provider']))}</td><td>{r['verified']}</td>"
        f"<td>{r['total_model_calls']}</td><td>{r['tokens']}</td>"
        f"<td>{_number(r['model_calls_per_verified'], '.2f')}</td>"
        f"<td>{_number(r['tokens_per_verified'], '.0f')}</td></tr>"
        for r in rows
    )
    return (
        f'<figure><figcaption>{title}</figcaption><table class="cost"><tr><th>provider</th>'
        "<th>verified</th><th>model calls</th><th>tokens</th><th>calls / verified</th>"
        f"<th>tokens / verified</th></tr>{body}</table></figure>"
    )


def page(
    accuracy: list[dict[str, Any]],
    trend: list[dict[str, Any]],
    suggestions: list[dict[str, Any]],
    routing: dict[str, str],
    calibration: CalibrationOut | None = None,
    *,
    promise: dict[str, int] | None = None,
    bins: list[dict[str, Any]] | None = None,
    table: list[dict[str, Any]] | None = None,
    cost: list[dict[str, Any]] | None = None,
    followups: bool = True,
) -> str:
    items = "".join(
        f"<li>{escape(str(s['suggestion']))} <small>×{s['n']}</small></li>" for s in suggestions
    )
    listing = f"<ol>{items}</ol>" if items else '<p class="empty">No suggestions yet.</p>'
    routes = "".join(
        f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in sorted(routing.items())
    ) or ('<tr><td colspan="2" class="empty">Static order (not enough data yet)</td></tr>')
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>SolveVerify dashboard</title>
<style>body{{font-family:system-ui,sans-serif;margin:2rem;color:#222}}
figure{{margin:1rem 0}}figcaption{{font-weight:600;margin-bottom:.3rem}}
.empty{{color:#888}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2rem .6rem}}.num{{font-size:1.4rem;font-weight:600}}
tr.small{{color:#999}}.warning{{color:#a33}}.pair{{display:flex;gap:2rem;flex-wrap:wrap}}
</style></head><body>
<h1>SolveVerify</h1>
{promise_panel(promise or {}, followups)}
<div class="pair">{reliability_diagram(bins or [])}{coverage_precision(bins or [])}</div>
{quality_table(table or [])}
{cost_table(cost or [])}
{bar_chart(accuracy, "Verified rate by provider and subject")}
{line_chart(trend, "Daily verified rate (of answered scans)")}
{calibration_panel(calibration)}
<h2>Routing</h2><table>{routes}</table>
<h2>Most frequent improvement suggestions</h2>{listing}
</body></html>"""
