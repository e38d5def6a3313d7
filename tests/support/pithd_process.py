"""pithd as a child process of a test script: started on a free loopback port
(read from its "listening" log line), its log kept, stopped with SIGTERM."""
import os
import re
import subprocess
import sys
import threading
import time


class Pithd:
    def __init__(self, binary, *args):
        env = {k: v for k, v in os.environ.items() if not k.startswith("PITH_")}
        self.proc = subprocess.Popen([binary, "--listen", "127.0.0.1:0", "--log-format", "text", *args],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env=env, text=True)
        deadline = time.monotonic() + 20
        self.log = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.log.append(line)
            match = re.search(r"listening address=127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                threading.Thread(target=self._drain, daemon=True).start()
                return
        self.proc.kill()
        sys.exit("FAIL: pithd did not start:\n" + "".join(self.log))

    def _drain(self):
        for line in self.proc.stdout:
            self.log.append(line)

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
