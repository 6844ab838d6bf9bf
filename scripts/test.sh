#!/usr/bin/env bash
# Install passcurve with its test dependencies into .venv and run the whole test suite.
# Browser tests need Debian's Chromium at /usr/bin/chromium: installed here when missing
# and we are root with apt-get (CI); otherwise those tests skip with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian chromium for the browser tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
        || echo "warning: could not install chromium; browser tests will skip"
fi
echo "ruff..." && .venv/bin/ruff check src tests benchmarks
echo "mypy..." && .venv/bin/mypy src
# property tests derandomized (tests/conftest.py): the same Hypothesis examples on every run
export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-ci}
# one pytest-xdist worker per CPU (the suite is CPU-bound: about 7 CPU-minutes); a later -n wins, so
# `bash scripts/test.sh -n 0` runs it in one process
exec .venv/bin/python -m pytest -n auto "$@"
