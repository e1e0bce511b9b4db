"""`python -m dpclaims ...`: the `dpclaims` command (see `dpclaims._cli`)."""
from ._cli import main

main()
