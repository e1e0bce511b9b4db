#!/usr/bin/env bash
# The Python package's tests (python/tests), as .ci/run runs them: a fresh virtual environment
# with maturin and pytest from the registry, `pip install .` from the checkout (what the README
# tells a Python user), then pytest. Then the same tests on the oldest Python the package claims
# (3.9, `requires-python`), with the wheel built once: when no Python 3.9 is found (python3.9 on
# PATH, or pyenv's), that run is skipped with a warning. No accountant library is installed:
# the adapters' tests that need one skip.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --upgrade pip
"$work/venv/bin/pip" install -q maturin pytest
"$work/venv/bin/pip" install -q .
echo "pip install . in a fresh virtual environment: $(( $(date +%s) - start )) s"
# Outside the checkout, so that `import dpclaims` is the installed package.
(cd "$work" && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")
oldest=""
for p in "$(pyenv root 2>/dev/null)/versions/3.9"*/bin/python3.9 python3.9; do
  # A pyenv shim on PATH may exist and still not run: ask the interpreter itself.
  if "$p" -c 'import sys; assert sys.version_info[:2] == (3, 9)' >/dev/null 2>&1; then
    oldest=$p
    break
  fi
done
if [ -z "$oldest" ]; then
  echo "warning: no Python 3.9 found: the oldest supported Python is not tested here" >&2
  exit 0
fi
"$work/venv/bin/maturin" build --release -q -o "$work/wheels"
"$oldest" -m venv "$work/venv39"
"$work/venv39/bin/pip" install -q pytest "$work"/wheels/*.whl
echo "oldest Python: $("$work/venv39/bin/python" --version)"
(cd "$work" && "$work/venv39/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/tests")
