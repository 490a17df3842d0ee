"""Nightly property runs: registered here, skipped unless SOLVEVERIFY_NIGHTLY=1."""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "nightly: long property-based runs (SOLVEVERIFY_NIGHTLY=1)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("SOLVEVERIFY_NIGHTLY") == "1":
        return
    skip = pytest.mark.skip(reason="nightly only: set SOLVEVERIFY_NIGHTLY=1")
    for item in items:
        if "nightly" in item.keywords:
            item.add_marker(skip)
