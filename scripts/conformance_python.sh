#!/usr/bin/env bash
# Runs the released Python accountants through `dpclaims conformance --full` (the adapters of
# the Python package, `python -m dpclaims.adapters.<name>`: python/dpclaims/adapters/) and
# writes their scorecards to target/conformance/: <name>.json (one JSON object per check),
# <name>.md (Markdown scorecard and findings with reproducers), versions.txt, summary.md.
# Needs python3 with venv, network access to PyPI and the Rust toolchain (`pip install .` builds
# the package dpclaims from pyproject.toml at the repository root); not part of the test suite.
#   scripts/conformance_python.sh [extra conformance options, e.g. --events 10]
# TIMEOUT (default 600) is the seconds allowed per query: the libraries take minutes on the
# largest events, and after a timeout the rest of a run is `broken`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/conformance
venv=$out/venv
mkdir -p "$out"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade dp-accounting prv-accountant numpy scipy
"$venv/bin/pip" install -q --upgrade --no-deps opacus   # the wheel only: no torch
"$venv/bin/pip" install -q .   # the package dpclaims, with dpclaims.adapters
{
  date -u +"date %Y-%m-%d %H:%M UTC"
  "$venv/bin/python" --version
  for p in dpclaims dp-accounting prv-accountant opacus numpy scipy; do
    echo "$p $("$venv/bin/pip" show "$p" 2>/dev/null | sed -n 's/^Version: //p')"
  done
} > "$out/versions.txt"
cat "$out/versions.txt"
cargo build --release -q
bin=target/release/dpclaims
export PATH="$PWD/$venv/bin:$PATH"   # `python` below is the environment's
extra=("$@")
summary=$out/summary.md
{ echo "# Conformance of released accountants"; echo; sed 's/^/    /' "$out/versions.txt"; } > "$summary"
for run in "dp_accounting rdp" "dp_accounting pld" "dp_accounting pld --compose-count" "prv_accountant" "opacus rdp" "opacus prv" "opacus gdp"; do
  set -- $run
  name=$1${2:+-$2}${3:+$3}
  cmd="python -m dpclaims.adapters.$1${2:+ $2}${3:+ $3}"
  echo "== $name: $cmd (supports $($cmd --supports))"
  start=$(date +%s)
  # Exit 1 means findings: a result, not a failure of this script.
  "$bin" conformance --full --timeout "${TIMEOUT:-600}" --command "$cmd" --json "${extra[@]}" > "$out/$name.json" || [ $? -eq 1 ]
  "$bin" conformance --full --timeout "${TIMEOUT:-600}" --command "$cmd" --markdown "${extra[@]}" > "$out/$name.md" || [ $? -eq 1 ]
  secs=$(( $(date +%s) - start ))
  { echo; echo "## $name ($secs s for both runs)"; echo; echo "\`$cmd\`"; echo; cat "$out/$name.md"; } >> "$summary"
  grep -c '"verdict":"finding"' "$out/$name.json" | sed "s/^/  findings: /" || true
done
echo "scorecards in $out/ (summary: $summary)"
