#!/usr/bin/env bash
# Re-resolve the lock files from pyproject.toml (see docs/dependencies.md). The runtime lock is
# resolved first and constrains the dev lock, so both pin every shared package to one version.
#   scripts/lock.sh                 keep current pins where pyproject still allows them
#   scripts/lock.sh --upgrade       newest versions pyproject allows
#   scripts/lock.sh --upgrade-package NAME   only NAME (and what it needs)
set -euo pipefail
cd "$(dirname "$0")/.."
uv=${UV:-uv}
common=(--universal --python-version 3.11 --generate-hashes --quiet)
"$uv" pip compile pyproject.toml "${common[@]}" "$@" -o requirements/base.lock
# The dev lock adds the benchmark (bench/pyproject.toml: its solveverify is this repository,
# left out of the lock).
"$uv" pip compile pyproject.toml bench/pyproject.toml --extra dev --extra local \
    -c requirements/base.lock --no-emit-package solveverify "${common[@]}" "$@" \
    -o requirements/dev.lock
