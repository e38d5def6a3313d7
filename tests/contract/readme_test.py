#!/usr/bin/python3
"""readme_test.py PITHD: the README says what the code does.

- Every example marked <!-- readme-example --> is run as written, from the
  repository root, against a pithd with the built-in defaults (on a free
  loopback port instead of 8080), and must print exactly the output shown.
- The metrics table is what `pithd --print-metrics-table` prints.
- The two commands are the Makefile's, and .ci/run runs `make test`.
Exit status 0 when everything holds, 1 otherwise.
"""

import re
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def start_pithd(binary):
    process = subprocess.Popen([binary, "--listen", "127.0.0.1:0"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, env={"PATH": "/usr/bin:/bin"})
    for line in process.stderr:
        match = re.search(r"listening address=127\.0\.0\.1:(\d+)", line)
        if match:
            threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
            return process, int(match.group(1))
    process.kill()
    sys.exit("pithd did not start")


def examples():
    """(command, expected output) for each marked example."""
    pattern = re.compile(r"<!-- readme-example -->\n```sh\n(.*?)```\n```json\n(.*?)```", re.S)
    return [(m.group(1), m.group(2).rstrip("\n")) for m in pattern.finditer(README)]


def main():
    binary = sys.argv[1]
    found = examples()
    check(len(found) >= 4, f"README has marked examples ({len(found)})")
    process, port = start_pithd(binary)
    try:
        for command, expected in found:
            runnable = command.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
            done = subprocess.run(["bash", "-c", runnable], cwd=REPO, capture_output=True, text=True, timeout=60)
            shown = command.strip().splitlines()[0]
            check(done.returncode == 0, f"example runs: {shown}")
            check(done.stdout.rstrip("\n") == expected,
                  f"example prints what the README shows: {shown}"
                  + ("" if done.stdout.rstrip("\n") == expected else f"\n--- got:\n{done.stdout}\n--- shown:\n{expected}"))
    finally:
        process.terminate()
        process.wait(30)

    table = subprocess.run([binary, "--print-metrics-table"], capture_output=True, text=True, check=True).stdout
    begin = "<!-- metrics-table:begin (pithd --print-metrics-table) -->\n"
    end = "<!-- metrics-table:end -->"
    check(begin in README and end in README and README.split(begin)[1].split(end)[0] == table,
          "the metrics table is what pithd --print-metrics-table prints")

    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    check("make run" in README and "make test" in README, "README gives the two commands")
    check(re.search(r"^run: build\n\t\$\(BUILD_DIR\)/pithd$", makefile, re.M) is not None,
          "make run builds and runs pithd with its built-in defaults")
    check(re.search(r"^\s*make test\s*$", (REPO / ".ci" / "run").read_text(encoding="utf-8"), re.M) is not None,
          ".ci/run runs make test")
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
