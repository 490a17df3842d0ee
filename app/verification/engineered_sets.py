"""The engineered aspect-verifier subsets, one per subject, as a JSON file.

Written by `solveverify calibrate` / the daily recalibrate job next to the calibration file;
spot-check panels read it (a subject without an entry uses SOLVEVERIFY_VERIFY_ASPECT_SETS).
Verifiers are stored as aspect keys ("aspect:strategy"): a panel applies them to whichever
model it runs on.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from app.verification.bon_mav import EngineeredSet


def aspect_key(verifier_id: str) -> str:
    """ "provider:model:aspect:strategy" → "aspect:strategy" (a model id may contain ':')."""
    return ":".join(verifier_id.rsplit(":", 2)[-2:])


def save(path: Path, sets: Mapping[str, EngineeredSet], fitted_at: str) -> None:
    payload = {"fitted_at": fitted_at, "subjects": {s: asdict(e) for s, e in sets.items()}}
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)  # atomic: a panel never reads half a file


_cache: dict[Path, tuple[float, dict[str, list[str]]]] = {}


def load(path: Path) -> dict[str, list[str]]:
    """Subject → aspect keys; empty when there is no (readable) file. Re-read on change."""
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return {}
    cached = _cache.get(path)
    if cached is not None and cached[0] == mtime:
        return cached[1]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        sets = {
            subject: [str(v) for v in entry["verifiers"]]
            for subject, entry in data.get("subjects", {}).items()
            if entry.get("verifiers")
        }
    except (ValueError, KeyError, TypeError, AttributeError):
        sets = {}
    _cache[path] = (mtime, sets)
    return sets
