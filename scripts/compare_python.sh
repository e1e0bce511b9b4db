#!/usr/bin/env bash
# Side-by-side comparison of dpclaims' accountants with dp-accounting 0.6.0 and
# prv-accountant 0.2.0 on 200 seeded random DP-SGD runs: agreement and speed ratios.
# Needs python3 with venv and network access to PyPI; not part of the test suite.
#   scripts/compare_python.sh [--n 200] [--skip-pld]
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/compare-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q dp-accounting==0.6.0 prv-accountant==0.2.0
fi
cargo build --release -q
"$venv/bin/python" scripts/compare_accountants.py --bin target/release/dpclaims "$@"
