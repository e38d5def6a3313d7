"""pithd on a free loopback port for the bench scripts, a JSON POST to it, and
the arguments such a script takes (--pithd, --corpus)."""

import argparse
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def arguments(doc):
    """--pithd (default build/pithd) and --corpus ($PITH_CORPUS, else ../shared/corpus), parsed."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--pithd", default=os.path.join(REPO, "build", "pithd"))
    parser.add_argument("--corpus",
                        default=os.environ.get("PITH_CORPUS", os.path.join(REPO, "..", "shared", "corpus")))
    return parser.parse_args()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Pithd:
    """`with Pithd(binary, workers) as pithd:` runs pithd until the block ends."""

    def __init__(self, binary, workers=1, extra_args=()):
        self.port = free_port()
        self.process = subprocess.Popen([binary, "--listen", f"127.0.0.1:{self.port}", "--workers", str(workers),
                                         *extra_args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:  # until /healthz answers
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.process.kill()
                    raise SystemExit(f"{binary} did not start")
                time.sleep(0.05)

    def post(self, body, timeout=120):
        """POST /extract with a JSON body: (seconds, answer bytes)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/extract", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
        return time.perf_counter() - start, data

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(30)
