#!/usr/bin/env bash
# Runs the released Python accountants through `dpclaims conformance --full` (the adapters of
# the Python package, `python -m dpclaims.adapters.<name>`: python/dpclaims/adapters/) and
# writes their scorecards to target/conformance/: <name>.json (one JSON object per check),
# <name>.md (Markdown scorecard and findings with reproducers), versions.txt, summary.md.
# Needs python3 with venv, network access to PyPI and the Rust toolchain (the package dpclaims
# is built once as an abi3 wheel from pyproject.toml at the repository root and installed in
# each environment); not part of the test suite.
#   scripts/conformance_python.sh [extra conformance options, e.g. --events 10]
# Three virtual environments: target/conformance/venv (dp-accounting, prv-accountant, Opacus,
# autodp), venv-jax (jax-privacy with CPU jax, ~650 MB, and the dp-accounting it pins) and
# venv-opake (opake-accounting and opake-dpsgd without torch; opake 0.16.1 imports only on
# Python 3.13, whatever its metadata says: OPAKE_PYTHON, default python3.13, else pyenv's
# 3.13.x). ONLY="autodp opake" runs the accountants whose names start with those words.
# TIMEOUT (default 600) is the seconds allowed per query: the libraries take minutes on the
# largest events, and after a timeout the rest of a run is `broken`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/conformance
mkdir -p "$out/wheels"

venv() {  # venv DIR PYTHON: creates the environment once
  [ -x "$1/bin/python" ] || "$2" -m venv "$1"
}
opake_python=${OPAKE_PYTHON:-}
if [ -z "$opake_python" ]; then   # the first Python 3.13 that runs (a pyenv shim may not)
  for c in python3.13 "$HOME"/.pyenv/versions/3.13*/bin/python; do
    if "$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' 2>/dev/null; then
      opake_python=$c; break
    fi
  done
fi

venv "$out/venv" python3
"$out/venv/bin/pip" install -q --upgrade dp-accounting prv-accountant numpy scipy autodp
"$out/venv/bin/pip" install -q --upgrade --no-deps opacus   # the wheel only: no torch
rm -f "$out"/wheels/dpclaims-*.whl
"$out/venv/bin/pip" wheel -q --no-deps -w "$out/wheels" .   # dpclaims (abi3: any Python >= 3.9)
wheel=$(ls "$out"/wheels/dpclaims-*.whl)
"$out/venv/bin/pip" install -q --force-reinstall --no-deps "$wheel"
venv "$out/venv-jax" python3
"$out/venv-jax/bin/pip" install -q --upgrade jax-privacy
"$out/venv-jax/bin/pip" install -q --force-reinstall --no-deps "$wheel"
if [ -n "$opake_python" ]; then
  venv "$out/venv-opake" "$opake_python"
  "$out/venv-opake/bin/pip" install -q --upgrade opake-accounting
  "$out/venv-opake/bin/pip" install -q --upgrade --no-deps opake-dpsgd   # no torch
  "$out/venv-opake/bin/pip" install -q --force-reinstall --no-deps "$wheel"
else
  echo "no Python 3.13 (set OPAKE_PYTHON): Opake is not run" >&2
fi
{
  date -u +"date %Y-%m-%d %H:%M UTC"
  for v in venv venv-jax venv-opake; do
    [ -x "$out/$v/bin/python" ] || continue
    echo "$v: $("$out/$v/bin/python" --version 2>&1)"
    for p in dpclaims dp-accounting prv-accountant opacus autodp jax-privacy jax opake-accounting opake-dpsgd numpy scipy; do
      ver=$("$out/$v/bin/pip" show "$p" 2>/dev/null | sed -n 's/^Version: //p') || true
      [ -z "$ver" ] || echo "  $p $ver"
    done
  done
} > "$out/versions.txt"
cat "$out/versions.txt"
cargo build --release -q
bin=target/release/dpclaims
extra=("$@")
summary=$out/summary.md
{ echo "# Conformance of released accountants"; echo; sed 's/^/    /' "$out/versions.txt"; } > "$summary"
# name | environment | module and arguments
runs=(
  "dp_accounting-rdp|venv|dp_accounting rdp"
  "dp_accounting-pld|venv|dp_accounting pld"
  "dp_accounting-pld--compose-count|venv|dp_accounting pld --compose-count"
  "prv_accountant|venv|prv_accountant"
  "opacus-rdp|venv|opacus rdp"
  "opacus-prv|venv|opacus prv"
  "opacus-gdp|venv|opacus gdp"
  "autodp|venv|autodp"
  "jax_privacy-rdp|venv-jax|jax_privacy rdp"
  "jax_privacy-pld|venv-jax|jax_privacy pld"
  "opake|venv-opake|opake"
)
for run in "${runs[@]}"; do
  IFS='|' read -r name env module <<< "$run"
  if [ -n "${ONLY:-}" ]; then
    keep=""; for w in $ONLY; do case $name in "$w"*) keep=1;; esac; done
    [ -n "$keep" ] || continue
  fi
  [ -x "$out/$env/bin/python" ] || { echo "== $name: no $env, skipped"; continue; }
  cmd="$PWD/$out/$env/bin/python -m dpclaims.adapters.$module"
  echo "== $name: $cmd (supports $($cmd --supports))"
  start=$(date +%s)
  # Exit 1 means findings: a result, not a failure of this script.
  "$bin" conformance --full --timeout "${TIMEOUT:-600}" --command "$cmd" --json "${extra[@]}" > "$out/$name.json" || [ $? -eq 1 ]
  "$bin" conformance --full --timeout "${TIMEOUT:-600}" --command "$cmd" --markdown "${extra[@]}" > "$out/$name.md" || [ $? -eq 1 ]
  secs=$(( $(date +%s) - start ))
  { echo; echo "## $name ($secs s for both runs)"; echo; echo "\`python -m dpclaims.adapters.$module\` ($env)"; echo; cat "$out/$name.md"; } >> "$summary"
  grep -c '"verdict":"finding"' "$out/$name.json" | sed "s/^/  findings: /" || true
done
echo "scorecards in $out/ (summary: $summary)"
