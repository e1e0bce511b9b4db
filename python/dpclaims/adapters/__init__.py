"""Released Python accountants as dpclaims accountants, in-process and on the line protocol.

Each module imports its library (and fails with an ImportError naming the pip package when it
is missing); this package itself imports nothing.

- `dpclaims.adapters.dp_accounting`: `RdpAccountant(compose_count=False)`,
  `PldAccountant(compose_count=False)` (Google's dp_accounting; `pip install dp-accounting`);
- `dpclaims.adapters.opacus`: `RdpAccountant()`, `PrvAccountant()`, `GdpAccountant()` (Opacus'
  accountants without torch, epsilon only; `pip install --no-deps opacus`);
- `dpclaims.adapters.prv_accountant`: `PrvAccountant()` (Microsoft's prv_accountant;
  `pip install prv-accountant`);
- `dpclaims.adapters.autodp`: `RdpAccountant()` (autodp's RDP mechanisms; `pip install autodp`);
- `dpclaims.adapters.opake`: `PldAccountant()` (Opake's PLD processes; Python 3.13,
  `pip install opake-accounting` and `pip install --no-deps opake-dpsgd`);
- `dpclaims.adapters.jax_privacy`: `RdpAccountant()`, `PldAccountant()` (jax_privacy's
  DpsgdTrainingAccountant, epsilon only; `pip install jax-privacy`);
- `dpclaims.adapters.pld_accounting`: `AllocationAccountant()` (PLD_accounting's random
  allocation of a Gaussian, add/remove, and nothing else; `pip install PLD_accounting`).

An accountant has `supports` (a dict: "events", "relations", "queries"), `epsilon(event, delta)`
and, if it answers delta, `delta(event, epsilon)`, where `event` is an event document
`{"version": 1, "neighbouring": "add-remove" | "replace-one", "event": {...}}`. What the library
does not cover raises NotImplementedError; bad documents raise ValueError naming the JSON path.
What each library needs of an event (noise relative to which sensitivity, RR buckets, which
relation for which sampling) is stated once, in docs/conformance.md, "Adapters".

    python -m dpclaims.adapters.dp_accounting rdp|pld [--compose-count] [--supports]
    python -m dpclaims.adapters.opacus rdp|prv|gdp [--supports]
    python -m dpclaims.adapters.prv_accountant [--supports]
    python -m dpclaims.adapters.autodp [--supports]
    python -m dpclaims.adapters.opake [--supports]
    python -m dpclaims.adapters.jax_privacy rdp|pld [--supports]
    python -m dpclaims.adapters.pld_accounting [--supports]
    dpclaims conformance --command 'python -m dpclaims.adapters.prv_accountant'

`dpclaims.adapters._protocol.serve(accountant)` puts any object with that interface (your own
accountant too) behind the line protocol of `dpclaims conformance --command`.
"""
