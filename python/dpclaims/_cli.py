"""The `dpclaims` command of the wheel: the accountant commands (epsilon, delta, audit,
conformance, answer) of the Rust binary, run in this process (`dpclaims --help`)."""
import signal
import sys


def main():
    from . import _dpclaims

    # The Rust code runs without the GIL and never returns to Python's signal handler: Ctrl-C
    # must end the process as it ends the native binary.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # A closed pipe (`dpclaims conformance ... | head`) ends the process quietly.
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.stdout.flush()
    try:
        code = _dpclaims.main(["dpclaims"] + sys.argv[1:])
    except _dpclaims.InternalError as e:  # a caught panic: the native binary's exit code
        print(f"error: {e}", file=sys.stderr)
        code = 101
    sys.exit(code)


if __name__ == "__main__":
    main()
