#!/usr/bin/env python3
"""A deliberately unsound accountant for `dpclaims audit --command`.

Reads rows (JSON lines, no `epsilon`) on stdin and answers {"epsilon": ...} per line: the PLD
epsilon that `dpclaims epsilon` computes, halved. Audit it with

    dpclaims audit examples/audit/published.jsonl --command 'python3 examples/audit/halving_accountant.py'

and every row comes out unsound. Set DPCLAIMS to the dpclaims binary (default: target/release/dpclaims).
"""
import json
import math
import os
import subprocess
import sys

BIN = os.environ.get("DPCLAIMS", "target/release/dpclaims")

for line in sys.stdin:
    row = json.loads(line)
    q = row.get("q") or row["batch"] / row["n"]
    steps = row.get("steps") or math.ceil(row["epochs"] * row["n"] / row["batch"] - 1e-9)
    out = subprocess.run(
        [BIN, "epsilon", "--accountant", "pld", "--q", repr(q), "--sigma", repr(row["sigma"]),
         "--steps", str(steps), "--delta", repr(row["delta"]), "--json"],
        check=True, capture_output=True, text=True).stdout
    print(json.dumps({"epsilon": json.loads(out.splitlines()[0])["epsilon"] / 2}), flush=True)
