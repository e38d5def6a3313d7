"""The checks the Python test scripts print: one "ok" or "FAIL" line each, the
failures kept for the script's exit status."""

failures = []


def check(ok, what, detail=""):
    """Prints the check (with `detail` under a failure) and returns `ok`."""
    print(("ok    " if ok else "FAIL  ") + what + (f"\n      {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        failures.append(what)
    return ok
