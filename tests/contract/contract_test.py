#!/usr/bin/python3
"""The API contract, checked against the running daemon.

Starts the real pithd (argv[1]) on 127.0.0.1 port 0 with the settings each
case needs, sends real requests over loopback and validates every answer
against proto-docs/openapi.yaml and proto-docs/article.schema.json: the status
is one the operation declares, the body validates against the schema declared
for that status and content type ($refs resolved, article.schema.json
included), and the declared headers are there (X-Request-Id, Retry-After on
503, Allow on 405, WWW-Authenticate on 401), the 503 at the connection limit
included. Answers to HEAD are read without a body and checked against GET's
answer to the same request: the same status and headers, Content-Length the
length of GET's body, and no body bytes (the next answer on the keep-alive
connection must start right after the head). It also checks that the error
codes and statuses documented equal `pithd --print-error-codes`, that the
documented option defaults equal `pithd --print-config`, that the options
documented are the ones `pithd --print-options` lists (the option table's rows
and the request's own), with the table's kinds, ranges, choices and defaults,
that the diagnostics timings are the ones extractor/src/render/article_json.cpp
writes, and that every example in openapi.yaml validates against its own
schema, so neither the code nor the documents can drift alone.

Usage:  /usr/bin/python3 tests/contract/contract_test.py build/pithd [-v] [--examples-out DIR]
Prints each case and every failed check (-v: every check); exit status 0 when
every check passes, 1 otherwise. --examples-out writes the real responses it
saw, one JSON file per case, for refreshing the examples in openapi.yaml.

Needs Debian's python3-jsonschema and python3-yaml; nothing else beyond the
standard library (Python 3.11 for tomllib). Every socket has a timeout; waits
are on events (a log line, a response, a request reaching the test origin, a
gauge read back from /metrics), never sleeps.
"""

import argparse
import base64
import http.server
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import traceback
import warnings
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto-docs"
FIXTURE = ROOT / "tests" / "fixtures" / "article.html"

# Error codes pithd knows (--print-error-codes) but never sends as an error
# response; openapi.yaml must name each under x-codes-not-sent, with the reason.
NOT_SENT_AS_ERROR_RESPONSE = {"io_error", "parse_failed"}

START_TIMEOUT = 15.0
IO_TIMEOUT = 30.0
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
FRESH_ID_RE = re.compile(r"^[0-9a-f]{16}$")
STATUS_LINE_RE = re.compile(r"^HTTP/1\.1 (\d{3}) ?(.*)$")
# diagnostics.timings_us, in pipeline order (extractor/src/render/article_json.cpp, diagnostics_json()).
TIMING_KEYS = ["decode", "prune", "parse", "dom_build", "metadata", "passes", "serialize", "confidence", "render"]
# The paths that take GET and HEAD; /extract and /extract/batch take POST only.
OPS_PATHS = ("/healthz", "/readyz", "/metrics", "/version")


# ---------------------------------------------------------------- reporting

class Report:
    def __init__(self):
        self.failures = []
        self.checks = 0
        self.verbose = False

    def ok(self, condition, what, detail=""):
        self.checks += 1
        if condition:
            if self.verbose:
                print("  ok   " + what, flush=True)
            return True
        message = what + (": " + detail if detail else "")
        self.failures.append(message)
        print("  FAIL " + message, flush=True)
        return False

    def case(self, title):
        print("- " + title, flush=True)


REPORT = Report()


# ---------------------------------------------------------------- HTTP client

class Response:
    def __init__(self, status, reason, headers, body):
        self.status = status
        self.reason = reason
        self.headers = headers  # [(name, value)] as received
        self.body = body

    def header(self, name):
        name = name.lower()
        for key, value in self.headers:
            if key.lower() == name:
                return value
        return None

    def json(self):
        return json.loads(self.body.decode("utf-8"))

    def record(self):
        try:
            body = self.json()
        except ValueError:
            body = self.body.decode("utf-8", "replace")
        return {"status": self.status, "headers": dict(self.headers), "body": body}


class Connection:
    """One client connection to loopback; every read and write is bounded."""

    def __init__(self, port, timeout=IO_TIMEOUT):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def send(self, data):
        self.sock.sendall(data)

    def _fill(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no complete response in time")
        self.sock.settimeout(remaining)
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("connection closed before the response was complete")
        self.buffer += chunk

    def read_response(self, timeout=IO_TIMEOUT, head=False):
        """The next response; with head=True (the answer to HEAD) the head only: such an answer
        has no body whatever its Content-Length says (RFC 9112, 6.3)."""
        deadline = time.monotonic() + timeout
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head_bytes, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head_bytes.decode("latin-1").split("\r\n")
        status_line = STATUS_LINE_RE.match(lines[0])
        if status_line is None:  # e.g. the body of a HEAD answer, sent where none belongs
            raise ValueError(f"not an HTTP/1.1 status line: {lines[0][:120]!r}")
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name.strip(), value.strip()))
        response = Response(int(status_line.group(1)), status_line.group(2), headers, b"")
        if head:
            return response
        length = response.header("content-length")
        if response.header("transfer-encoding") is not None:
            raise ValueError("pithd sent Transfer-Encoding; the client here expects Content-Length")
        if length is None:
            while True:  # the body ends with the connection
                try:
                    self._fill(deadline)
                except ConnectionError:
                    break
            response.body, self.buffer = self.buffer, b""
            return response
        length = int(length)
        while len(self.buffer) < length:
            self._fill(deadline)
        response.body, self.buffer = self.buffer[:length], self.buffer[length:]
        return response

    def read_to_end(self, timeout=IO_TIMEOUT):
        """Everything the server sends until it closes the connection (what is left in the buffer included)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._fill(deadline)
            except ConnectionError:
                break
        rest, self.buffer = self.buffer, b""
        return rest

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def build_request(method, target, headers=(), body=None, keep_alive=False):
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{name}: {value}" for name, value in headers]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    if not keep_alive:
        lines.append("Connection: close")
    data = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    return data + (body or b"")


def http_request(port, method, target, headers=(), body=None, timeout=IO_TIMEOUT):
    if isinstance(body, str):
        body = body.encode("utf-8")
    connection = Connection(port, timeout)
    try:
        connection.send(build_request(method, target, headers, body))
        return connection.read_response(timeout, head=method == "HEAD")
    finally:
        connection.close()


JSON = [("Content-Type", "application/json")]
HTML = [("Content-Type", "text/html; charset=utf-8")]


def json_body(html=None, url=None, options=None):
    body = {}
    if html is not None:
        body["html"] = html
    if url is not None:
        body["url"] = url
    if options is not None:
        body["options"] = options
    return json.dumps(body)


def article_page(paragraphs):
    """The page tests/server/test_support.cpp builds: plain scoring prose."""
    return ("<html><head><title>A long page</title></head><body><article>" + "".join(
        f"<p>Paragraph {i} carries ordinary prose, with commas, clauses and a full stop,"
        " so that it scores like text.</p>"
        for i in range(paragraphs)) + "</article></body></html>")


# ---------------------------------------------------------------- pithd process

class Pithd:
    """pithd on 127.0.0.1:0; its log lines are collected so tests can wait on them."""

    def __init__(self, binary, args=(), env=None, name="pithd"):
        self.name = name
        environment = {k: v for k, v in os.environ.items() if not k.startswith("PITH_")}
        environment.update(env or {})
        self.proc = subprocess.Popen([binary, "--listen", "127.0.0.1:0", *args], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        self.lines = []
        self.signalled = False
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._pump, args=(stream,), daemon=True)
                        for stream in (self.proc.stdout, self.proc.stderr)]
        for reader in self.readers:
            reader.start()
        match = self.wait_for(r"listening address=127\.0\.0\.1:(\d+)", START_TIMEOUT)
        if match is None:
            self.kill()
            raise RuntimeError(f"{name} did not start ({' '.join(args)}):\n" + self.log())
        self.port = int(match.group(1))

    def _pump(self, stream):
        for raw in iter(stream.readline, b""):
            with self.changed:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, pattern, timeout, start=0):
        """The first log line from index `start` on matching `pattern`, or None at the timeout or exit."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for line in self.lines[start:]:
                    match = regex.search(line)
                    if match:
                        return match
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.proc.poll() is not None and not any(r.is_alive() for r in self.readers)):
                    return None
                self.changed.wait(remaining)

    def mark(self):
        with self.changed:
            return len(self.lines)

    def log(self):
        with self.changed:
            return "\n".join(self.lines[-40:])

    def signal(self, signum):
        self.signalled = True
        self.proc.send_signal(signum)

    def stop(self):
        """SIGTERM unless a signal was sent already, then the exit status (pithd drains and exits 0)."""
        if self.proc.poll() is None and not self.signalled:
            self.signal(signal.SIGTERM)
        try:
            status = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()
            REPORT.ok(False, f"{self.name} exits after SIGTERM", "still running after 30 s")
            return None
        for reader in self.readers:
            reader.join(timeout=5)
        REPORT.ok(status == 0, f"{self.name} exits 0 after SIGTERM", f"exit status {status}\n{self.log()}")
        return status

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is not None:
            self.kill()
        else:
            self.stop()


# ---------------------------------------------------------------- the contract

def media_type(value):
    """('text/plain', {'version': '0.0.4'}) from a Content-Type value or a content key."""
    parts = [p.strip() for p in value.split(";")]
    params = {}
    for part in parts[1:]:
        name, _, param = part.partition("=")
        params[name.strip().lower()] = param.strip().strip('"')
    return parts[0].lower(), params


class Contract:
    def __init__(self):
        self.openapi_path = PROTO / "openapi.yaml"
        self.article_path = PROTO / "article.schema.json"
        with open(self.openapi_path, encoding="utf-8") as f:
            self.doc = yaml.safe_load(f)
        with open(self.article_path, encoding="utf-8") as f:
            self.article = json.load(f)
        self.base = self.openapi_path.resolve().as_uri()
        store = {self.base: self.doc, self.article_path.resolve().as_uri(): self.article}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.resolver = jsonschema.RefResolver(base_uri=self.base, referrer=self.doc, store=store)

    # -- lookups

    def deref(self, node):
        """Follows a local $ref ('#/components/...') of an OpenAPI object (not a schema)."""
        seen = 0
        while isinstance(node, dict) and "$ref" in node and seen < 10:
            ref = node["$ref"]
            if not ref.startswith("#/"):
                raise ValueError(f"only local $refs between OpenAPI objects, got {ref}")
            node = self.doc
            for token in ref[2:].split("/"):
                node = node[token.replace("~1", "/").replace("~0", "~")]
            seen += 1
        return node

    def validator(self, schema):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return jsonschema.Draft202012Validator(schema, resolver=self.resolver)

    def schema_errors(self, schema, instance):
        errors = sorted(self.validator(schema).iter_errors(instance), key=lambda e: list(e.absolute_path))
        return ["/".join(map(str, e.absolute_path)) + ": " + e.message[:300] for e in errors[:5]]

    def response_object(self, path, method, status):
        """The Response object the document declares for this request and status, with where it came from."""
        item = self.doc["paths"].get(path)
        unrouted = self.doc.get("x-unrouted-responses", {})
        if item is None or method.lower() not in item:
            where = f"x-unrouted-responses/{status}"
            return self.deref(unrouted.get(str(status))) if str(status) in unrouted else None, where, item
        responses = item[method.lower()]["responses"]
        where = f"paths/{path}/{method.lower()}/responses/{status}"
        return (self.deref(responses[str(status)]) if str(status) in responses else None), where, item

    def operation(self, path, method):
        return self.doc["paths"][path][method.lower()]

    # -- validation of one real response

    def check(self, response, path, method, expect_status, expect_code=None, label=None, request_id=None):
        """Validates `response` against the document; returns the parsed body (or None)."""
        label = label or f"{method} {path}"
        REPORT.ok(response.status == expect_status, f"{label}: status {expect_status}",
                  f"got {response.status} {response.body[:300]!r}")
        spec, where, item = self.response_object(path, method, response.status)
        if not REPORT.ok(spec is not None, f"{label}: status {response.status} is declared", where):
            return None
        rid = self.check_headers(response, spec, where, item, label, request_id)
        # Body: the content type is declared and the body validates.
        content_type = response.header("content-type") or ""
        media = self.declared_media(spec, content_type)
        if not REPORT.ok(media is not None, f"{label}: Content-Type {content_type!r} is declared",
                         f"{where} declares {list(spec.get('content') or {})}"):
            return None
        if media_type(content_type)[0] != "application/json":
            return response.body.decode("utf-8")
        try:
            body = response.json()
        except ValueError as e:
            REPORT.ok(False, f"{label}: body is JSON", str(e))
            return None
        errors = self.schema_errors(media.get("schema", {}), body)
        REPORT.ok(not errors, f"{label}: body validates against {where}",
                  "; ".join(errors) + f"\n    body: {json.dumps(body)[:400]}")
        if expect_code is not None:
            code = body.get("error", {}).get("code") if isinstance(body, dict) else None
            REPORT.ok(code == expect_code, f"{label}: error code {expect_code}", f"got {code!r}")
        if isinstance(body, dict) and ("error" in body or "length" in body):  # an error or an Article
            REPORT.ok(body.get("request_id") == rid, f"{label}: request_id in the body equals X-Request-Id",
                      f"{body.get('request_id')!r} != {rid!r}")
        return body

    def check_head(self, response, path, expect_status, gets, label=None, request_id=None, slack=0):
        """Validates the answer to HEAD `path` (read without a body) against the document and against
        `gets`, GET's answers to the same request (same X-Request-Id) just before and after: the same
        status, the same header names and values, Content-Length that of GET's body (between the
        shortest and the longest GET body, +-`slack` bytes for /metrics, whose numbers move), and the
        Content-Type GET's answer declares."""
        label = label or f"HEAD {path}"
        REPORT.ok(response.status == expect_status, f"{label}: status {expect_status}", f"got {response.status}")
        spec, where, item = self.response_object(path, "HEAD", response.status)
        if not REPORT.ok(spec is not None, f"{label}: status {response.status} is declared", where):
            return
        self.check_headers(response, spec, where, item, label, request_id)
        get_spec, get_where, _ = self.response_object(path, "GET", response.status)
        content_type = response.header("content-type") or ""
        REPORT.ok(get_spec is not None and self.declared_media(get_spec, content_type) is not None,
                  f"{label}: Content-Type {content_type!r} is the one {get_where} declares")
        length = response.header("content-length")
        if not REPORT.ok(length is not None and re.fullmatch(r"[1-9]\d*", length) is not None,
                         f"{label}: Content-Length present and positive", repr(length)):
            return
        for get in gets:
            REPORT.ok(get.status == response.status, f"{label}: the status GET gets",
                      f"HEAD {response.status}, GET {get.status}")
            head_headers = sorted((k.lower(), v) for k, v in response.headers if k.lower() != "content-length")
            get_headers = sorted((k.lower(), v) for k, v in get.headers if k.lower() != "content-length")
            REPORT.ok(head_headers == get_headers, f"{label}: the headers GET gets, with the same values",
                      f"HEAD {head_headers} != GET {get_headers}")
        lengths = [len(get.body) for get in gets]
        REPORT.ok(bool(lengths) and min(lengths) - slack <= int(length) <= max(lengths) + slack,
                  f"{label}: Content-Length is the length of GET's body" + (f" (+-{slack})" if slack else ""),
                  f"Content-Length {length}, GET bodies {lengths}")

    def declared_media(self, spec, content_type):
        """The Media Type object `spec` declares for a Content-Type value, or None."""
        got_type, got_params = media_type(content_type)
        media = None
        for key, candidate in (spec.get("content") or {}).items():
            want_type, want_params = media_type(key)
            if want_type == got_type and all(got_params.get(k) == v for k, v in want_params.items()):
                media = candidate
        return media

    def check_headers(self, response, spec, where, item, label, request_id):
        """The declared headers, the headers the status needs and X-Request-Id; returns X-Request-Id."""
        # Headers: every required one present, every declared one valid.
        for name, header in (spec.get("headers") or {}).items():
            header = self.deref(header)
            value = response.header(name)
            if header.get("required"):
                REPORT.ok(value is not None, f"{label}: header {name} present ({where})")
            if value is not None and "schema" in header:
                instance = value
                if header["schema"].get("type") == "integer":
                    instance = int(value) if re.fullmatch(r"\d+", value) else value
                errors = self.schema_errors(header["schema"], instance)
                REPORT.ok(not errors, f"{label}: header {name}={value!r} matches its schema", "; ".join(errors))
        # The headers the status needs, whatever the document says, and the document must say so too.
        needed = {401: "WWW-Authenticate", 405: "Allow"}.get(response.status)
        if response.status == 503 and (b'"error"' in response.body or response.header("retry-after") is not None):
            needed = "Retry-After"
        if needed:
            declared = {name.lower(): self.deref(h) for name, h in (spec.get("headers") or {}).items()}
            REPORT.ok(response.header(needed) is not None, f"{label}: {response.status} carries {needed}")
            REPORT.ok(needed.lower() in declared, f"{label}: {where} declares {needed}")
        rid = response.header("x-request-id")
        REPORT.ok(rid is not None and REQUEST_ID_RE.match(rid) is not None,
                  f"{label}: X-Request-Id present and well formed", repr(rid))
        if request_id is not None:
            REPORT.ok(rid == request_id, f"{label}: X-Request-Id is the one sent", f"{rid!r} != {request_id!r}")
        REPORT.ok(response.header("cache-control") == "no-store", f"{label}: Cache-Control: no-store",
                  repr(response.header("cache-control")))
        if response.status == 405 and item is not None:
            methods = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
            allowed = sorted(m.upper() for m in item if m in methods)
            REPORT.ok(response.header("allow") == ", ".join(allowed), f"{label}: Allow lists the path's methods",
                      f"{response.header('allow')!r} != {allowed}")
        return rid


CONTRACT = None
EXAMPLES = {}


def save(name, response):
    EXAMPLES[name] = response.record()


# ---------------------------------------------------------------- static checks

def check_documents(binary):
    REPORT.case("documents: well-formed, examples valid, codes and defaults equal the binary's")
    doc = CONTRACT.doc
    REPORT.ok(doc.get("openapi") == "3.1.0", "openapi.yaml declares OpenAPI 3.1.0", repr(doc.get("openapi")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            jsonschema.Draft202012Validator.check_schema(CONTRACT.article)
            REPORT.ok(True, "article.schema.json is a valid draft 2020-12 schema")
        except jsonschema.SchemaError as e:
            REPORT.ok(False, "article.schema.json is a valid draft 2020-12 schema", e.message)
        for name, schema in doc.get("components", {}).get("schemas", {}).items():
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as e:
                REPORT.ok(False, f"components/schemas/{name} is a valid schema", e.message)
    REPORT.ok(CONTRACT.article.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
              "article.schema.json declares draft 2020-12")
    REPORT.ok(set(doc["paths"]) == {"/extract", "/extract/batch", "/inspect", *OPS_PATHS},
              "openapi.yaml documents exactly pithd's endpoints", str(sorted(doc["paths"])))
    http_methods = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
    for path in ("/extract", "/extract/batch"):
        REPORT.ok(set(doc["paths"][path]) & http_methods == {"post"}, f"{path} documents POST alone",
                  str(sorted(doc["paths"][path])))
    for path in (*OPS_PATHS, "/inspect"):
        item = doc["paths"][path]
        REPORT.ok(set(item) & http_methods == {"get", "head"}, f"{path} documents GET and HEAD alone",
                  str(sorted(item)))
        if "get" in item and "head" in item:
            get_statuses = set(item["get"]["responses"])
            head_statuses = set(item["head"]["responses"])
            REPORT.ok(get_statuses == head_statuses, f"HEAD {path} declares the statuses GET {path} declares",
                      f"GET {sorted(get_statuses)}, HEAD {sorted(head_statuses)}")
            for status, response in item["head"]["responses"].items():
                response = CONTRACT.deref(response)
                headers = {name.lower(): CONTRACT.deref(h) for name, h in (response.get("headers") or {}).items()}
                if status in ("200",) or (path == "/readyz" and status == "503"):
                    REPORT.ok(headers.get("content-length", {}).get("required") is True,
                              f"HEAD {path} {status} declares a required Content-Length")
                    REPORT.ok("content" not in response or status == "503",
                              f"HEAD {path} {status} declares no body")
    allow = CONTRACT.deref(doc["components"]["headers"]["Allow"])["schema"]
    REPORT.ok(sorted(allow.get("enum", [])) == ["GET, HEAD", "POST"],
              "the Allow header is 'GET, HEAD' or 'POST'", repr(allow))

    # Every $ref resolves, every response key is a quoted status, every example validates.
    def walk(node, trail):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from walk(value, trail + [key])
            yield node, trail
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, trail + [i])

    examples = 0
    for node, trail in walk(doc, []):
        if "$ref" in node and isinstance(node["$ref"], str):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    CONTRACT.resolver.resolve(node["$ref"])
            except Exception as e:  # noqa: BLE001 - any failure is the finding
                REPORT.ok(False, f"$ref {node['$ref']} at {'/'.join(map(str, trail))} resolves", str(e))
        if trail and trail[-1] in ("responses", "x-unrouted-responses") and trail != ["components", "responses"]:
            for key in node:
                REPORT.ok(isinstance(key, str) and re.fullmatch(r"[1-5]\d\d", key) is not None,
                          f"response key {key!r} at {'/'.join(map(str, trail))} is a quoted status")
        if "schema" in node and ("examples" in node or "example" in node) and len(trail) >= 1:
            values = [("example", node["example"])] if "example" in node else []
            values += [(name, CONTRACT.deref(ex).get("value")) for name, ex in (node.get("examples") or {}).items()]
            for name, value in values:
                examples += 1
                errors = CONTRACT.schema_errors(node["schema"], value)
                REPORT.ok(not errors, f"example {name} at {'/'.join(map(str, trail))} validates", "; ".join(errors))
    REPORT.ok(examples >= 20, "openapi.yaml carries examples for the responses", f"{examples} found")

    # Error codes: the document's codes and statuses are the binary's.
    printed = json.loads(subprocess.run([binary, "--print-error-codes"], capture_output=True, check=True,
                                        timeout=30).stdout)
    code_schema = doc["components"]["schemas"]["ErrorCode"]
    documented = {}
    for entry in code_schema.get("oneOf", []):
        documented[entry.get("const")] = entry.get("x-http-status")
    not_sent = doc.get("x-codes-not-sent", {})
    REPORT.ok(set(not_sent) == NOT_SENT_AS_ERROR_RESPONSE,
              "x-codes-not-sent names exactly the codes never sent as an error response",
              f"{sorted(not_sent)} != {sorted(NOT_SENT_AS_ERROR_RESPONSE)}")
    for code in NOT_SENT_AS_ERROR_RESPONSE:
        REPORT.ok(code in printed, f"{code} is a code of the binary")
        REPORT.ok(isinstance(not_sent.get(code), dict) and not_sent[code].get("x-http-status") == printed.get(code)
                  and bool(not_sent[code].get("description")),
                  f"x-codes-not-sent/{code} states the binary's status {printed.get(code)} and a reason")
    sent = {code: status for code, status in printed.items() if code not in NOT_SENT_AS_ERROR_RESPONSE}
    missing = sorted(set(sent) - set(documented))
    extra = sorted(set(documented) - set(sent))
    REPORT.ok(not missing and not extra, "components/schemas/ErrorCode lists exactly the codes pithd sends",
              f"undocumented: {missing}; not in the binary: {extra}")
    wrong = {c: (documented[c], sent[c]) for c in set(sent) & set(documented) if documented[c] != sent[c]}
    REPORT.ok(not wrong, "every documented code has the binary's HTTP status", f"(document, binary): {wrong}")
    REPORT.ok("parse_failed" in CONTRACT.article["$defs"]["ArticleError"]["properties"]["code"]["enum"],
              "parse_failed is documented where pithd sends it: the 200 Article's error")

    # Each error response restricts the code to codes of its own status, and together they cover every code.
    covered = set()

    def error_responses(responses, where):
        for status, response in responses.items():
            response = CONTRACT.deref(response)
            schema = (response.get("content") or {}).get("application/json", {}).get("schema", {})
            for branch in [schema] + list(schema.get("oneOf", [])):
                codes = branch.get("properties", {}).get("error", {}).get("properties", {}).get("code", {}).get("enum")
                if codes is None:
                    continue
                for code in codes:
                    covered.add(code)
                    REPORT.ok(sent.get(code) == int(status), f"{where}/{status} lists {code}, whose status it is",
                              f"the binary says {sent.get(code)}")

    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                error_responses(operation["responses"], f"{method.upper()} {path}")
    error_responses(doc.get("x-unrouted-responses", {}), "x-unrouted-responses")
    REPORT.ok(covered == set(sent), "every code pithd sends appears under a response of its status",
              f"missing: {sorted(set(sent) - covered)}")

    # Options: names, defaults and ranges agree with the server.
    config = tomllib.loads(subprocess.run([binary, "--print-config"], capture_output=True, check=True, text=True,
                                          timeout=30).stdout)
    options = CONTRACT.deref(doc["components"]["schemas"]["ExtractOptions"])
    for name, schema in options["properties"].items():
        types = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
        REPORT.ok(len(types) == 2 and "null" in types, f"option {name}: one JSON type, or null for the default",
                  repr(schema.get("type")))
        key = name  # the options are named like their [extract] keys
        if key in config["extract"]:
            REPORT.ok(schema.get("default") == config["extract"][key],
                      f"option {name}: documented default equals extract.{key} of --print-config",
                      f"{schema.get('default')!r} != {config['extract'][key]!r}")
    REPORT.ok(options["properties"]["timeout_ms"].get("maximum") is None and
              "request_timeout_ms" in options["properties"]["timeout_ms"].get("description", ""),
              "option timeout_ms is bounded by limits.request_timeout_ms, as documented")
    query_params = [CONTRACT.deref(p) for p in CONTRACT.operation("/extract", "post").get("parameters", [])
                    if CONTRACT.deref(p)["in"] == "query"]
    query = {p["name"] for p in query_params}
    for param in query_params:  # a query value is never null: each narrows its option's schema to the type
        if param["name"] in options["properties"]:
            types = options["properties"][param["name"]]["type"]
            REPORT.ok(param["schema"].get("type") == [t for t in types if t != "null"][0],
                      f"query parameter {param['name']} is its option's type without null",
                      repr(param["schema"].get("type")))
    # An object option (rules) cannot be a query value: it is in JSON bodies only.
    scalar_options = {name for name, schema in options["properties"].items()
                      if "object" not in (schema.get("type") if isinstance(schema.get("type"), list)
                                          else [schema.get("type")])}
    REPORT.ok(query == scalar_options | {"url"},
              "the raw form's query parameters are the scalar options plus url",
              f"only query: {sorted(query - set(options['properties']))}; only options: "
              f"{sorted(set(options['properties']) - query)}")
    # The options pithd takes: the option table's rows and the request's own
    # (`pithd --print-options`), each documented with the table's type, range,
    # choices and default.
    served = json.loads(subprocess.run([binary, "--print-options"], capture_output=True, check=True, text=True,
                                       timeout=30).stdout)
    names = [o["name"] for o in served]
    REPORT.ok(len(names) == len(set(names)) and set(names) == set(options["properties"]),
              "the options documented are the options pithd takes (--print-options)",
              f"undocumented: {sorted(set(names) - set(options['properties']))}; "
              f"not taken: {sorted(set(options['properties']) - set(names))}")
    json_type = {"integer": "integer", "number": "number", "boolean": "boolean", "choice": "string"}
    for row in served:
        schema = options["properties"].get(row["name"])
        if schema is None or row["group"] == "request":
            continue
        types = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
        REPORT.ok(json_type[row["kind"]] in types, f"option {row['name']}: documented as the table's kind",
                  f"{types} for {row['kind']}")
        if row["kind"] in ("integer", "number"):
            REPORT.ok(schema.get("minimum") == row["minimum"] and schema.get("maximum") == row["maximum"],
                      f"option {row['name']}: documented range is the table's",
                      f"[{schema.get('minimum')}, {schema.get('maximum')}] != [{row['minimum']}, {row['maximum']}]")
        if row["kind"] == "choice":
            REPORT.ok([c for c in schema.get("enum", []) if c is not None] == row["choices"],
                      f"option {row['name']}: documented choices are the table's", repr(schema.get("enum")))
        REPORT.ok(schema.get("default") == row["default"],
                  f"option {row['name']}: documented default is the table's", f"{schema.get('default')!r} != "
                  f"{row['default']!r}")

    # diagnostics.timings_us: the schema's keys are the ones extractor/src/render/article_json.cpp writes.
    timings = CONTRACT.article["$defs"]["Diagnostics"]["properties"]["timings_us"]
    REPORT.ok(timings.get("required") == TIMING_KEYS and list(timings.get("properties", {})) == TIMING_KEYS
              and timings.get("additionalProperties") is False,
              "article.schema.json: timings_us has exactly " + ", ".join(TIMING_KEYS), repr(timings.get("required")))
    writer = (ROOT / "extractor" / "src" / "render" / "article_json.cpp").read_text(encoding="utf-8")
    block = writer[writer.find('{"timings_us",'):]
    written = re.findall(r'\{"(\w+)", t\.\w+\}', block[:block.find("}},")])
    REPORT.ok(written == TIMING_KEYS, "extractor/src/render/article_json.cpp writes exactly those timings, in that order",
              repr(written))
    return options


# ---------------------------------------------------------------- live cases

def validate_request(body_text, expect_valid, label):
    """The JSON request we send is (or is not) a valid request by the document."""
    op = CONTRACT.operation("/extract", "post")
    schema = CONTRACT.deref(op["requestBody"])["content"]["application/json"]["schema"]
    errors = CONTRACT.schema_errors(schema, json.loads(body_text))
    REPORT.ok((not errors) == expect_valid,
              f"{label}: request is {'valid' if expect_valid else 'invalid'} by the documented request schema",
              "; ".join(errors) or "the schema accepts it")


def case_main(binary, options_schema):
    page = FIXTURE.read_text(encoding="utf-8")
    url = "https://example.com/2026/03/deltas.html"
    with Pithd(binary, ["--workers", "2", "--max-body-bytes", "65536", "--extract-max-input-bytes", "16384"],
               name="pithd (main)") as pithd:
        port = pithd.port
        REPORT.case("GET /healthz, /readyz, /version, /metrics")
        r = http_request(port, "GET", "/healthz")
        CONTRACT.check(r, "/healthz", "GET", 200)
        save("healthz", r)
        r = http_request(port, "GET", "/readyz")
        CONTRACT.check(r, "/readyz", "GET", 200)
        save("readyz", r)
        r = http_request(port, "GET", "/version")
        body = CONTRACT.check(r, "/version", "GET", 200)
        save("version", r)
        printed = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout.split()
        REPORT.ok(body is not None and printed[-1:] == [body.get("version")], "/version equals pithd --version",
                  f"{body} vs {printed}")
        r = http_request(port, "GET", "/metrics")
        text = CONTRACT.check(r, "/metrics", "GET", 200)
        REPORT.ok(media_type(r.header("content-type") or "")[0] == "text/plain", "/metrics is text/plain")
        bad = [line for line in (text or "").splitlines()
               if line and not line.startswith("#")
               and not re.fullmatch(r'[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eEInfa]+', line)]
        REPORT.ok(text is not None and not bad, "/metrics lines are Prometheus text samples", str(bad[:3]))
        save("metrics", r)

        case_head(port)

        REPORT.case("POST /extract, JSON body and raw body, each format, diagnostics, no_content")
        body_text = json_body(page, url, {"diagnostics": True})
        validate_request(body_text, True, "JSON request")
        r = http_request(port, "POST", "/extract", JSON + [("X-Request-Id", "json-example-1")], body_text)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="JSON body, diagnostics", request_id="json-example-1")
        save("extract_json_diagnostics", r)
        if art:
            REPORT.ok(art.get("status") == "ok" and "content" in art and "textContent" in art and "diagnostics" in art,
                      "JSON body: status ok with content, textContent and diagnostics")
            REPORT.ok(len(art["diagnostics"]["passes"]) >= 1, "diagnostics: at least one pass")
            timings = art["diagnostics"].get("timings_us", {})
            REPORT.ok(sorted(timings) == sorted(TIMING_KEYS) and all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in timings.values()),
                "diagnostics.timings_us: integer microseconds for exactly " + ", ".join(TIMING_KEYS),
                repr(timings))

        target = "/extract?url=https%3A%2F%2Fexample.com%2F2026%2F03%2Fdeltas.html"
        r = http_request(port, "POST", target, HTML + [("X-Request-Id", "raw-example-1")], page)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="raw text/html body", request_id="raw-example-1")
        save("extract_raw", r)
        if art:
            REPORT.ok(art.get("status") == "ok" and "diagnostics" not in art, "raw body: status ok, no diagnostics")
            REPORT.ok(art.get("favicon") == "https://example.com/favicon.ico", "raw body: url query sets the base")

        r = http_request(port, "POST", "/extract?format=html", [("Content-Type", "application/xhtml+xml")], page)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="format=html (application/xhtml+xml)")
        save("extract_format_html", r)
        if art:
            REPORT.ok("content" in art and "textContent" not in art, "format=html: content without textContent")

        body_text = json_body(page, None, {"format": "text"})
        validate_request(body_text, True, "format=text request")
        r = http_request(port, "POST", "/extract", JSON, body_text)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="format=text")
        save("extract_format_text", r)
        if art:
            REPORT.ok("textContent" in art and "content" not in art, "format=text: textContent without content")
            REPORT.ok(isinstance(art.get("text"), str) and art["text"] and "\n\n\n" not in art["text"]
                      and art["text"] == art["text"].strip(),
                      "format=text: clean text, no run of blank lines, nothing leading or trailing")

        body_rule = json_body(page, None, {"rules": {"content": ["//nothing", "//article"], "title": "//h1"},
                                           "diagnostics": True})
        validate_request(body_rule, True, "inline rules request")
        r = http_request(port, "POST", "/extract", JSON, body_rule)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="inline rules")
        if art:
            rule = (art.get("diagnostics") or {}).get("rule") or {}
            REPORT.ok(rule.get("outcome") == "applied" and art.get("title") == "How River Deltas Build Land",
                      "an inline rule's body is the article and its title the title", repr(rule))
        r = http_request(port, "POST", "/extract?content_selector=%23nothing&diagnostics", HTML, page)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="content_selector that selects nothing")
        if art:
            REPORT.ok(((art.get("diagnostics") or {}).get("rule") or {}).get("outcome") == "fell_back"
                      and art.get("status") == "ok", "a selector that selects nothing falls back to the strategy")

        r = http_request(port, "POST", "/extract?format=markdown", HTML, page)
        art = CONTRACT.check(r, "/extract", "POST", 200, label="format=markdown")
        save("extract_format_markdown", r)
        if art:
            REPORT.ok(isinstance(art.get("markdown"), str) and art["markdown"].startswith("#")
                      and "content" in art and "textContent" in art and "text" not in art,
                      "format=markdown: markdown (starting with the heading) beside content and textContent")

        r = http_request(port, "POST", "/extract?format=text&diagnostics", HTML,
                         "<html><head><title>App</title></head><body><div id=\"root\"></div>"
                         "<script>render()</script></body></html>")
        art = CONTRACT.check(r, "/extract", "POST", 200, label="nothing readable")
        save("extract_no_content", r)
        if art:
            REPORT.ok(art.get("status") == "no_content" and "diagnostics" in art,
                      "nothing readable is a 200 with status no_content ('?diagnostics' alone means true)")

        # Every documented option, with its documented default, in both forms.
        defaults = {name: s["default"] for name, s in options_schema["properties"].items() if "default" in s}
        # The default of a budget is the server's setting: this server lowers max_input_bytes.
        defaults["max_input_bytes"] = 16384
        body_text = json_body(page, url, defaults)
        validate_request(body_text, True, "all options at their defaults")
        r = http_request(port, "POST", "/extract", JSON, body_text)
        CONTRACT.check(r, "/extract", "POST", 200, label="every documented option (JSON), at its default")
        query = "&".join(f"{k}={str(v).lower()}" for k, v in defaults.items()) + "&timeout_ms=5000"
        r = http_request(port, "POST", "/extract?" + query, HTML, page)
        CONTRACT.check(r, "/extract", "POST", 200, label="every documented option (query), at its default")

        REPORT.case("X-Request-Id: echoed when usable, replaced otherwise")
        r = http_request(port, "GET", "/healthz", [("X-Request-Id", "bad id!")])
        CONTRACT.check(r, "/healthz", "GET", 200, label="unusable X-Request-Id")
        REPORT.ok(re.fullmatch(r"[0-9a-f]{16}", r.header("x-request-id") or "") is not None,
                  "an unusable X-Request-Id is replaced by 16 hex digits", repr(r.header("x-request-id")))

        REPORT.case("400 invalid_json, invalid_argument, invalid_url; 403 blocked_address")
        r = http_request(port, "POST", "/extract", JSON, '{"html": ')
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_json", label="malformed JSON")
        save("invalid_json", r)
        r = http_request(port, "POST", "/extract", JSON, '["<p>x</p>"]')
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_json", label="JSON that is not an object")
        for label, body_text, code in [
            ("unknown field", json_body(None, None, None)[:-1] + '"htm": "<p>x</p>"}', "invalid_argument"),
            ("unknown option", json_body("<p>x</p>", None, {"fmt": "text"}), "invalid_argument"),
            ("n_top_candidates out of range", json_body("<p>x</p>", None, {"n_top_candidates": 0}), "invalid_argument"),
            ("format not json|html|text", json_body("<p>x</p>", None, {"format": "xml"}), "invalid_argument"),
            ("diagnostics not a boolean", json_body("<p>x</p>", None, {"diagnostics": 2}), "invalid_argument"),
            ("neither html nor url", json_body(None, None, {}), "invalid_argument"),
            ("relative url", json_body("<p>x</p>", "deltas.html"), "invalid_argument"),
            ("options not an object", '{"html": "<p>x</p>", "options": 3}', "invalid_argument"),
        ]:
            validate_request(body_text, False, label)
            r = http_request(port, "POST", "/extract", JSON, body_text)
            CONTRACT.check(r, "/extract", "POST", 400, code, label=label)
            if label == "unknown option":
                save("invalid_argument", r)
        case_json_options(port, options_schema, page, url)

        r = http_request(port, "POST", "/extract?timeout_ms=999999", HTML, "<p>x</p>")
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label="timeout_ms over the server's")
        save("invalid_argument_timeout", r)
        r = http_request(port, "POST", "/extract?format=text&format=html", HTML, "<p>x</p>")
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label="query parameter given twice")
        body_text = json_body(None, "ftp://example.com/page.html")
        validate_request(body_text, True, "ftp url (valid by shape)")
        r = http_request(port, "POST", "/extract", JSON, body_text)
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_url", label="ftp URL to fetch")
        save("invalid_url", r)
        r = http_request(port, "POST", "/extract", JSON, json_body(None, "http://127.0.0.1:1/"))
        CONTRACT.check(r, "/extract", "POST", 403, "blocked_address", label="loopback URL to fetch")
        save("blocked_address", r)

        REPORT.case("415 unsupported_media_type")
        r = http_request(port, "POST", "/extract", [("Content-Type", "text/plain")], "x")
        CONTRACT.check(r, "/extract", "POST", 415, "unsupported_media_type", label="text/plain body")
        save("unsupported_media_type", r)
        r = http_request(port, "POST", "/extract", [("Content-Type", "application/json; charset=latin1")], "{}")
        CONTRACT.check(r, "/extract", "POST", 415, "unsupported_media_type", label="JSON not in UTF-8")
        r = http_request(port, "POST", "/extract", [], "x")
        CONTRACT.check(r, "/extract", "POST", 415, "unsupported_media_type", label="no Content-Type")

        REPORT.case("413 body_too_large (before the body is read), 413 input_too_large")
        connection = Connection(port)
        try:  # the head alone: the answer must come without the body
            connection.send(build_request("POST", "/extract", HTML + [("Content-Length", "1000000")]))
            r = connection.read_response()
        finally:
            connection.close()
        CONTRACT.check(r, "/extract", "POST", 413, "body_too_large", label="Content-Length over max_body_bytes")
        save("body_too_large", r)
        connection = Connection(port)
        try:
            connection.send(build_request("POST", "/extract", HTML + [("Transfer-Encoding", "chunked")]))
            chunk = b"x" * 32768
            try:
                for _ in range(4):
                    connection.send(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                connection.send(b"0\r\n\r\n")
            except OSError:
                pass  # the server may answer and stop reading first
            r = connection.read_response()
        finally:
            connection.close()
        CONTRACT.check(r, "/extract", "POST", 413, "body_too_large", label="chunked body over max_body_bytes")
        connection = Connection(port)
        try:
            connection.send(build_request("GET", "/healthz", [("Content-Length", "1000000")]))
            r = connection.read_response()
        finally:
            connection.close()
        CONTRACT.check(r, "/healthz", "GET", 413, "body_too_large", label="GET /healthz with a large body")
        r = http_request(port, "POST", "/extract", HTML, article_page(200))
        CONTRACT.check(r, "/extract", "POST", 413, "input_too_large", label="page over extract.max_input_bytes")
        save("input_too_large", r)

        REPORT.case("422 too_many_elements, too_deep")
        r = http_request(port, "POST", "/extract?max_elements=50", HTML, "<p>x</p>" * 100)
        CONTRACT.check(r, "/extract", "POST", 422, "too_many_elements", label="max_elements=50, 100 paragraphs")
        save("too_many_elements", r)
        deep = " " * 2000 + "<div>" * 16 + "deep"
        r = http_request(port, "POST", "/extract", JSON, json_body(deep, None, {"max_depth": 10}))
        CONTRACT.check(r, "/extract", "POST", 422, "too_deep", label="max_depth=10, 16 nested divs")
        save("too_deep", r)
        crowded = "<div" + "".join(f" a{i}=1" for i in range(600)) + ">x</div>"
        r = http_request(port, "POST", "/extract", HTML, crowded)
        CONTRACT.check(r, "/extract", "POST", 422, "too_many_attributes", label="600 attributes on one element")
        save("too_many_attributes", r)
        tags = "<i>x</i>" * 1500
        r = http_request(port, "POST", "/extract?max_memory_bytes=1048576", HTML, tags)
        CONTRACT.check(r, "/extract", "POST", 422, "too_much_memory", label="max_memory_bytes=1 MiB, 1,500 elements")
        save("too_much_memory", r)

        REPORT.case("404, 405 with Allow, 431, 400 bad_request")
        r = http_request(port, "GET", "/nope")
        CONTRACT.check(r, "/nope", "GET", 404, "not_found", label="GET /nope")
        save("not_found", r)
        for path, method in [("/extract", "GET"), ("/healthz", "POST"), ("/readyz", "DELETE"), ("/metrics", "PUT"),
                             ("/version", "POST"), ("/healthz", "OPTIONS"), ("/version", "PATCH")]:
            r = http_request(port, method, path, body=b"" if method != "GET" else None)
            CONTRACT.check(r, path, method, 405, "method_not_allowed", label=f"{method} {path}")
            REPORT.ok(r.header("allow") == ("POST" if path == "/extract" else "GET, HEAD"),
                      f"{method} {path}: Allow is exactly {'POST' if path == '/extract' else 'GET, HEAD'}",
                      repr(r.header("allow")))
            if path == "/extract":
                save("method_not_allowed", r)
            elif path == "/healthz" and method == "POST":
                save("ops_method_not_allowed", r)
        r = http_request(port, "GET", "/healthz", [("X-Padding", "p" * 20000)])
        CONTRACT.check(r, "/healthz", "GET", 431, "header_too_large", label="20 kB header")
        save("header_too_large", r)
        r = http_request(port, "POST", "/extract", HTML + [("X-Padding", "p" * 20000)], "<p>x</p>")
        CONTRACT.check(r, "/extract", "POST", 431, "header_too_large", label="20 kB header on /extract")
        connection = Connection(port)
        try:
            connection.send(b"HELLO THERE\r\n\r\n")
            r = connection.read_response()
        finally:
            connection.close()
        CONTRACT.check(r, "(not HTTP)", "GET", 400, "bad_request", label="not HTTP")
        save("bad_request", r)
        connection = Connection(port)
        try:
            connection.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
            r = connection.read_response()
        finally:
            connection.close()
        CONTRACT.check(r, "/healthz", "GET", 400, "bad_request", label="malformed header line")


def head_round_trip(port, path, request_id, expect_status, slack=0, label=None):
    """GET, HEAD, GET of `path` on one keep-alive connection, all with X-Request-Id `request_id`.

    The HEAD answer is read as a head alone; pithd must send nothing after it, so the second GET's
    answer has to start right there (a stray body would be read as its status line, and fail). Then
    HEAD with Connection: close: after its head, pithd must send nothing and close.
    """
    label = label or f"HEAD {path}"
    headers = [("X-Request-Id", request_id)]
    connection = Connection(port)
    try:
        connection.send(build_request("GET", path, headers, keep_alive=True))
        before = connection.read_response()
        connection.send(build_request("HEAD", path, headers, keep_alive=True))
        head = connection.read_response(head=True)
        REPORT.ok(connection.buffer == b"", f"{label}: no body bytes after the head", repr(connection.buffer[:80]))
        connection.send(build_request("GET", path, headers, keep_alive=True))
        try:
            after = connection.read_response()
        except (ValueError, OSError) as e:  # a stray body where the next status line belongs, or a close
            REPORT.ok(False, f"{label}: the next request on the keep-alive connection is answered correctly",
                      f"{type(e).__name__}: {e}")
            return head
        REPORT.ok(after.status == expect_status and after.header("x-request-id") == request_id,
                  f"{label}: the next request on the keep-alive connection is answered correctly",
                  f"{after.status} {after.body[:120]!r}")
    finally:
        connection.close()
    CONTRACT.check_head(head, path, expect_status, [before, after], label=label, request_id=request_id, slack=slack)
    REPORT.ok(head.header("connection") is None, f"{label}: the connection stays open (no Connection: close)",
              repr(head.header("connection")))
    connection = Connection(port)
    try:
        connection.send(build_request("HEAD", path, headers))
        last = connection.read_response(head=True)
        rest = connection.read_to_end()
    finally:
        connection.close()
    REPORT.ok(last.status == expect_status and last.header("connection") == "close",
              f"{label} with Connection: close: status {expect_status}, Connection: close",
              f"{last.status} {last.header('connection')!r}")
    REPORT.ok(rest == b"", f"{label} with Connection: close: nothing after the head, then the close", repr(rest[:80]))
    return head


def case_head(port):
    REPORT.case("HEAD /healthz, /readyz, /metrics, /version: GET's status and headers, Content-Length, no body")
    for path in ("/healthz", "/readyz", "/version"):
        head = head_round_trip(port, path, "head-" + path.strip("/"), 200)
        save("head_" + path.strip("/"), head)
    # /metrics changes between two scrapes (counters, durations, memory): its Content-Length must lie
    # between the lengths of the scrapes just before and after, give or take a few digits.
    head_round_trip(port, "/metrics", "head-metrics", 200, slack=64)
    REPORT.case("HEAD elsewhere: the 404 or 405 GET gets, without the body")
    head_round_trip(port, "/nope", "head-nope", 404, label="HEAD /nope")
    head = head_round_trip(port, "/extract", "head-extract", 405, label="HEAD /extract")
    REPORT.ok(head.header("allow") == "POST", "HEAD /extract: Allow is exactly POST", repr(head.header("allow")))


def case_json_options(port, options_schema, page, url):
    REPORT.case("JSON options: null is the default, names are checked even when null, values keep their JSON type")
    # null stands for the default: every option null gives the article no options give.
    plain = http_request(port, "POST", "/extract", JSON + [("X-Request-Id", "null-options")], json_body(page, url))
    base = CONTRACT.check(plain, "/extract", "POST", 200, label="no options", request_id="null-options")
    body_text = json_body(page, url, {name: None for name in options_schema["properties"]})
    validate_request(body_text, True, "every option null")
    r = http_request(port, "POST", "/extract", JSON + [("X-Request-Id", "null-options")], body_text)
    art = CONTRACT.check(r, "/extract", "POST", 200, label="every documented option null", request_id="null-options")
    if art and base:
        REPORT.ok(art == base, "every option null: the same article as no options (the defaults)",
                  f"differs in {sorted(k for k in set(art) | set(base) if art.get(k) != base.get(k))}")
        REPORT.ok("content" in art and "textContent" in art and "diagnostics" not in art,
                  "every option null: format json (content and textContent), no diagnostics")
    # A null does not excuse an unknown name.
    for label, options, bad in [("unknown option, null", {"fmt": None}, "fmt"),
                                ("known null, then unknown null", {"format": None, "Format": None}, "Format"),
                                ("top-level field name as option, null", {"html": None}, "html")]:
        body_text = json_body("<p>x</p>", None, options)
        validate_request(body_text, False, label)
        r = http_request(port, "POST", "/extract", JSON, body_text)
        body = CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label=label)
        REPORT.ok(body is not None and f'"{bad}"' in body.get("error", {}).get("message", ""),
                  f"{label}: the message names {bad!r}", repr(body))
    # JSON values must have the option's own JSON type; each value below is in range, only its type is wrong.
    in_range = {"max_elements": 5000, "max_depth": 100, "char_threshold": 500, "n_top_candidates": 5,
                "timeout_ms": 5000, "max_memory_bytes": 64 * 1024 * 1024, "lectito_char_threshold": 500,
                "lectito_min_content_length": 140, "max_input_bytes": 8192, "max_attributes": 100, "max_pages": 2}
    saved = False
    for name, schema in options_schema["properties"].items():
        kind = [t for t in schema["type"] if t != "null"][0]
        if kind == "integer":
            value = in_range[name]
            wrong = [str(value), float(value), True]
        elif kind == "boolean":
            wrong = ["true", "false", 1, 0]
        elif kind == "number":
            wrong = ["1", True]
        else:
            wrong = [1, True]
        for value in wrong:
            label = f"JSON option {name}: {json.dumps(value)}"
            body_text = json_body("<p>x</p>", None, {name: value})
            if not isinstance(value, float):
                # JSON Schema counts 5.0 as an integer (one number model): ExtractOptions' description
                # says pithd refuses it, the schema cannot.
                validate_request(body_text, False, label)
            r = http_request(port, "POST", "/extract", JSON, body_text)
            body = CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label=label)
            REPORT.ok(body is not None and body.get("error", {}).get("message", "").startswith(f"option {name}: "),
                      f"{label}: the message names the option", repr(body))
            if name == "retry" and value == "true" and not saved:
                save("invalid_argument_json_type", r)
                saved = True
    # The same values as text in the query of the raw form are parsed.
    target = "/extract?max_elements=5000&retry=true&diagnostics=1&n_top_candidates=5&timeout_ms=5000"
    r = http_request(port, "POST", target, HTML, page)
    art = CONTRACT.check(r, "/extract", "POST", 200, label="the same options as query text")
    REPORT.ok(art is not None and "diagnostics" in art, "query text diagnostics=1 is parsed as true")
    body_text = json_body(page, url, {"max_elements": 5000, "retry": True, "diagnostics": True,
                                      "n_top_candidates": 5, "timeout_ms": 5000})
    validate_request(body_text, True, "the same options with their JSON types")
    r = http_request(port, "POST", "/extract", JSON, body_text)
    art = CONTRACT.check(r, "/extract", "POST", 200, label="the same options with their JSON types")
    REPORT.ok(art is not None and "diagnostics" in art, "JSON diagnostics: true is taken")

    REPORT.case("A JSON body with a query string is refused")
    for target in ("/extract?format=text", "/extract?url=https%3A%2F%2Fexample.com%2F", "/extract?diagnostics",
                   "/extract?x"):
        r = http_request(port, "POST", target, JSON, json_body("<p>x</p>"))
        body = CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label=f"JSON body, POST {target}")
        message = (body or {}).get("error", {}).get("message", "")
        REPORT.ok('"options"' in message and "query string" in message,
                  f"JSON body, POST {target}: the message says options go in \"options\"", repr(message))
        if target == "/extract?format=text":
            save("invalid_argument_json_query", r)
    # Non-empty only: a bare "?" is no query string.
    r = http_request(port, "POST", "/extract?", JSON, json_body(page, url, {"format": "text"}))
    art = CONTRACT.check(r, "/extract", "POST", 200, label="JSON body, POST /extract? (empty query)")
    REPORT.ok(art is not None and "textContent" in art and "content" not in art,
              "JSON body with an empty query: its options are taken")


def case_auth(binary):
    REPORT.case("401 unauthorized with WWW-Authenticate (PITH_AUTH_TOKEN); the other endpoints stay open")
    token = "contract-test-token"
    with Pithd(binary, ["--workers", "1"], {"PITH_AUTH_TOKEN": token}, name="pithd (auth)") as pithd:
        body = json_body("<p>x</p>")
        r = http_request(pithd.port, "POST", "/extract", JSON, body)
        CONTRACT.check(r, "/extract", "POST", 401, "unauthorized", label="no token")
        save("unauthorized", r)
        REPORT.ok((r.header("www-authenticate") or "").startswith("Bearer"), "401: WWW-Authenticate names Bearer")
        r = http_request(pithd.port, "POST", "/extract", JSON + [("Authorization", "Bearer wrong")], body)
        CONTRACT.check(r, "/extract", "POST", 401, "unauthorized", label="wrong token")
        r = http_request(pithd.port, "POST", "/extract", JSON + [("Authorization", "Bearer " + token)], body)
        CONTRACT.check(r, "/extract", "POST", 200, label="right token")
        for path in OPS_PATHS:
            r = http_request(pithd.port, "GET", path)
            CONTRACT.check(r, path, "GET", 200, label=f"GET {path} without a token")
            head_round_trip(pithd.port, path, "auth-head", 200, slack=64 if path == "/metrics" else 0,
                            label=f"HEAD {path} without a token")
        r = http_request(pithd.port, "HEAD", "/extract")
        REPORT.ok(r.status == 405, "HEAD /extract with a token configured: 405 before the token is asked for",
                  str(r.status))
        security = CONTRACT.operation("/extract", "post").get("security")
        REPORT.ok(security == [{}, {"bearerAuth": []}, {"basicAuth": []}],
                  "POST /extract declares optional bearer or Basic auth", repr(security))
        for path in OPS_PATHS:
            for method in ("get", "head"):
                REPORT.ok(CONTRACT.operation(path, method).get("security", []) == [],
                          f"{method.upper()} {path} declares no security")


def case_inspector(binary):
    REPORT.case("GET /inspect: the page and its headers, HEAD, 401 with Basic first, 404 when off; option inspect")
    with Pithd(binary, ["--workers", "1"], name="pithd (inspector)") as pithd:
        r = http_request(pithd.port, "GET", "/inspect")
        page = CONTRACT.check(r, "/inspect", "GET", 200)
        REPORT.ok(isinstance(page, str) and "<title>pith inspector</title>" in page and page.count("<script>") == 1,
                  "GET /inspect: the inspector's page, with one inline script")
        REPORT.ok(not re.search(r'<(script|link|img|iframe)[^>]+(src|href)=["\']?(https?:)?//', page or ""),
                  "GET /inspect: nothing is loaded from anywhere else")
        head_round_trip(pithd.port, "/inspect", "inspect-head", 200)
        r = http_request(pithd.port, "POST", "/extract", JSON, json.dumps({
            "html": article_page(8), "url": "https://example.com/a", "options": {"inspect": True}}))
        art = CONTRACT.check(r, "/extract", "POST", 200, label="POST /extract with option inspect")
        inspection = (art or {}).get("inspection") or {}
        REPORT.ok([s.get("strategy") for s in inspection.get("strategies", [])] ==
                  ["readability", "lectito", "fitness", "auto"], "option inspect: every strategy, in order")
        REPORT.ok("data-pith-root" in (inspection.get("source") or ""), "option inspect: the root is marked")
        REPORT.ok(art is not None and "diagnostics" in art and "markdown" in art and "text" in art,
                  "option inspect: diagnostics, markdown and text come with it")
    token = "contract-test-token"
    with Pithd(binary, ["--workers", "1"], {"PITH_AUTH_TOKEN": token}, name="pithd (inspector, auth)") as pithd:
        r = http_request(pithd.port, "GET", "/inspect")
        CONTRACT.check(r, "/inspect", "GET", 401, "unauthorized", label="GET /inspect without the token")
        challenges = [v for k, v in r.headers if k.lower() == "www-authenticate"]
        REPORT.ok(challenges == ['Basic realm="pithd", charset="UTF-8"', 'Bearer realm="pithd"'],
                  "GET /inspect 401: challenges Basic, then Bearer", repr(challenges))
        basic = "Basic " + base64.b64encode(f"anyone:{token}".encode()).decode()
        r = http_request(pithd.port, "GET", "/inspect", [("Authorization", basic)])
        CONTRACT.check(r, "/inspect", "GET", 200, label="GET /inspect with Basic credentials")
        r = http_request(pithd.port, "POST", "/extract", JSON + [("Authorization", basic)], json_body("<p>x</p>"))
        CONTRACT.check(r, "/extract", "POST", 200, label="POST /extract with Basic credentials")
        for path, method in (("/inspect", "get"), ("/inspect", "head")):
            security = CONTRACT.operation(path, method).get("security")
            REPORT.ok(security == [{}, {"bearerAuth": []}, {"basicAuth": []}],
                      f"{method.upper()} {path} declares optional bearer or Basic auth", repr(security))
    with Pithd(binary, ["--workers", "1", "--inspector=false"], name="pithd (inspector off)") as pithd:
        r = http_request(pithd.port, "GET", "/inspect")
        CONTRACT.check(r, "/inspect", "GET", 404, "not_found", label="GET /inspect with server.inspector = false")
        r = http_request(pithd.port, "POST", "/extract", JSON, json.dumps({"html": "<p>x</p>",
                                                                          "options": {"inspect": True}}))
        CONTRACT.check(r, "/extract", "POST", 400, "invalid_argument", label="option inspect with the inspector off")


def case_deadline(binary, big_page):
    REPORT.case("504 deadline_exceeded (--request-timeout-ms 1, a multi-MB page)")
    with Pithd(binary, ["--workers", "1", "--request-timeout-ms", "1"], name="pithd (deadline)") as pithd:
        connection = Connection(pithd.port)
        try:
            connection.send(build_request("POST", "/extract", HTML, big_page, keep_alive=True))
            r = connection.read_response()
            CONTRACT.check(r, "/extract", "POST", 504, "deadline_exceeded", label="past the request deadline")
            save("deadline_exceeded", r)
            connection.send(build_request("GET", "/healthz"))
            r = connection.read_response()
            CONTRACT.check(r, "/healthz", "GET", 200, label="the connection stays usable after a 504")
        finally:
            connection.close()


def case_overloaded(binary, big_page):
    REPORT.case("503 overloaded with Retry-After (--workers 1 --queue-capacity 1, six slow requests at once)")
    # The deadline counts a request's wait in the queue: under ASan on a busy
    # machine the queued request can wait past the default 10 s, and this case
    # is about the queue, so the server waits as long as the client does.
    with Pithd(binary, ["--workers", "1", "--queue-capacity", "1", "--request-timeout-ms", "120000"],
               name="pithd (queue)") as pithd:
        connections = [Connection(pithd.port, timeout=120) for _ in range(6)]
        request = build_request("POST", "/extract?format=text", HTML, big_page)
        try:
            for connection in connections:
                connection.send(request)
            refused = served = 0
            for connection in connections:
                r = connection.read_response(timeout=120)
                if r.status == 503:
                    refused += 1
                    CONTRACT.check(r, "/extract", "POST", 503, "overloaded", label="queue full")
                    save("overloaded", r)
                else:
                    served += 1
                    CONTRACT.check(r, "/extract", "POST", 200, label="slow request served")
            REPORT.ok(refused >= 1 and served >= 1, "one worker and one queue slot refuse some of six slow requests",
                      f"{served} served, {refused} refused")
        finally:
            for connection in connections:
                connection.close()


def case_connection_limit(binary):
    REPORT.case("503 overloaded at the connection limit (--max-connections 1), with the headers of every error")
    with Pithd(binary, ["--workers", "1", "--max-connections", "1"], name="pithd (connections)") as pithd:
        held = Connection(pithd.port)
        try:
            held.send(build_request("GET", "/healthz", keep_alive=True))
            CONTRACT.check(held.read_response(), "/healthz", "GET", 200, label="the connection that is counted")
            # pithd answers at accept, before reading: the client need not (and here does not)
            # send its request, so no unread bytes make the close a reset. Any path and method get these bytes.
            answers = []
            for _ in range(2):
                extra = Connection(pithd.port)
                try:
                    answers.append(extra.read_response())
                    rest = extra.read_to_end()
                finally:
                    extra.close()
                REPORT.ok(rest == b"", "one connection too many: pithd closes the connection after the answer",
                          repr(rest[:80]))
            r = answers[0]
            for path, method in [("/healthz", "GET"), ("/healthz", "HEAD"), ("/extract", "POST"), ("/readyz", "GET"),
                                 ("/readyz", "HEAD"), ("/metrics", "GET"), ("/version", "HEAD")]:
                CONTRACT.check(r, path, method, 503, "overloaded", label=f"one connection too many ({method} {path})")
            rid = r.header("x-request-id") or ""
            REPORT.ok(FRESH_ID_RE.match(rid) is not None, "connection limit: X-Request-Id is a fresh 16-hex-digit id",
                      repr(rid))
            REPORT.ok(answers[1].header("x-request-id") not in (None, rid),
                      "connection limit: each refused connection gets its own id",
                      f"{rid!r}, {answers[1].header('x-request-id')!r}")
            REPORT.ok(r.header("retry-after") == "1", "connection limit: Retry-After: 1", repr(r.header("retry-after")))
            REPORT.ok(r.header("connection") == "close", "connection limit: Connection: close",
                      repr(r.header("connection")))
            REPORT.ok(r.header("cache-control") == "no-store", "connection limit: Cache-Control: no-store",
                      repr(r.header("cache-control")))
            save("connection_limit", r)
            held.send(build_request("GET", "/healthz", keep_alive=True))
            CONTRACT.check(held.read_response(), "/healthz", "GET", 200, label="the counted connection still serves")
        finally:
            held.close()


def case_shutdown(binary):
    REPORT.case("GET /readyz 503 during the shutdown delay; 503 draining for a request that arrives while draining")
    with Pithd(binary, ["--workers", "1", "--shutdown-delay-ms", "60000"], name="pithd (shutdown delay)") as pithd:
        mark = pithd.mark()
        pithd.signal(signal.SIGTERM)
        # pithd logs this line in the signal handler, just before /readyz turns 503; with one I/O
        # thread (the default) the next request is handled after the whole handler has run.
        if REPORT.ok(pithd.wait_for(r"shutting down", IO_TIMEOUT, mark) is not None, "SIGTERM is logged"):
            r = http_request(pithd.port, "GET", "/readyz")
            CONTRACT.check(r, "/readyz", "GET", 503, label="readyz while shutting down")
            save("readyz_draining", r)
            head = head_round_trip(pithd.port, "/readyz", "head-draining", 503,
                                   label="HEAD /readyz while shutting down")
            REPORT.ok(head.header("content-length") == str(len(b'{"status":"draining"}')),
                      "HEAD /readyz while shutting down: Content-Length of {\"status\":\"draining\"}",
                      repr(head.header("content-length")))
            save("head_readyz_draining", head)
        pithd.signal(signal.SIGTERM)  # a second signal ends the delay
    with Pithd(binary, ["--workers", "1"], name="pithd (draining)") as pithd:
        connection = Connection(pithd.port)
        try:
            connection.send(b"POST /extract HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # in flight: not idle
            # SIGTERM closes idle connections: wait until pithd counts this one in flight
            # (the /metrics request itself is the other one).
            REPORT.ok(wait_in_flight(pithd.port, 2), "the half-sent request is counted in flight")
            mark = pithd.mark()
            pithd.signal(signal.SIGTERM)
            if REPORT.ok(pithd.wait_for(r"\bdraining\b", IO_TIMEOUT, mark) is not None, "draining is logged"):
                connection.send(b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                r = connection.read_response()
                CONTRACT.check(r, "/extract", "POST", 503, "draining", label="request completed while draining")
                save("draining", r)
        finally:
            connection.close()


def wait_in_flight(port, count, timeout=IO_TIMEOUT):
    """Scrapes /metrics until pithd_requests_in_flight reaches `count`; each scrape is a round trip."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = http_request(port, "GET", "/metrics").body.decode("utf-8")
        match = re.search(r"^pithd_requests_in_flight (\S+)$", text, re.M)
        if match and float(match.group(1)) >= count:
            return True
    return False


class NotTls:
    """Accepts one connection on loopback and answers a TLS ClientHello with plain HTTP."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.sock.settimeout(IO_TIMEOUT)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        try:
            client, _ = self.sock.accept()
            with client:
                client.settimeout(IO_TIMEOUT)
                client.recv(4096)
                client.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        except OSError:
            pass

    def close(self):
        self.sock.close()
        self.thread.join(timeout=5)


class Origin:
    """A tiny HTTP origin on loopback for the fetch errors."""

    def __init__(self, page):
        self.stall_arrived = threading.Event()
        self.release = threading.Event()
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def answer(self, status, content_type, body, extra=()):
                self.send_response(status)
                if content_type:
                    self.send_header("Content-Type", content_type)
                for name, value in extra:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):  # noqa: N802 - the name http.server calls
                if self.path == "/article.html":
                    self.answer(200, "text/html; charset=utf-8", page.encode("utf-8"))
                elif self.path == "/missing.html":
                    self.answer(404, "text/html", b"<p>gone</p>")
                elif self.path == "/data.json":
                    self.answer(200, "application/json", b"{}")
                elif self.path == "/loop":
                    self.answer(302, "text/html", b"", [("Location", "/loop")])
                elif self.path == "/big.html":
                    self.answer(200, "text/html", b"<p>" + b"x" * 100000 + b"</p>")
                elif self.path == "/corrupt.html":
                    self.answer(200, "text/html", b"this is not gzip", [("Content-Encoding", "gzip")])
                elif self.path == "/stall.html":
                    origin.stall_arrived.set()
                    origin.release.wait(30)
                else:
                    self.answer(404, "text/plain", b"")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def case_fetch(binary):
    REPORT.case("URL fetches against a loopback origin (--fetch-allow 127.0.0.1): 200 and the upstream errors")
    page = FIXTURE.read_text(encoding="utf-8")
    origin = Origin(page)
    not_tls = NotTls()
    try:
        # The header timeout bounds the stalled fetch, which must still hold its slot
        # when the second request arrives: long enough for a loaded machine, short for the suite.
        args = ["--workers", "1", "--fetch-allow", "127.0.0.1", "--fetch-max-response-bytes", "65536",
                "--fetch-header-timeout-ms", "1500", "--fetch-max-redirects", "2", "--fetch-max-per-host", "1"]
        with Pithd(binary, args, name="pithd (fetch)") as pithd:
            base = f"http://127.0.0.1:{origin.port}"
            body = json_body(None, base + "/article.html", {"format": "text"})
            r = http_request(pithd.port, "POST", "/extract", JSON, body)
            art = CONTRACT.check(r, "/extract", "POST", 200, label="fetched page")
            if art:
                REPORT.ok(art.get("status") == "ok", "fetched page: status ok")
            for label, url, status, code in [
                ("upstream 404", base + "/missing.html", 502, "upstream_status"),
                ("upstream JSON", base + "/data.json", 422, "unsupported_content_type"),
                ("redirect loop", base + "/loop", 502, "too_many_redirects"),
                ("upstream body over the limit", base + "/big.html", 502, "too_large"),
                ("corrupt gzip", base + "/corrupt.html", 502, "upstream_error"),
                ("TLS to a plain HTTP port", f"https://127.0.0.1:{not_tls.port}/article.html", 502, "tls_error"),
                ("nothing listening", f"http://127.0.0.1:{free_port()}/", 502, "connect_failed"),
            ]:
                r = http_request(pithd.port, "POST", "/extract", JSON, json_body(None, url))
                body = CONTRACT.check(r, "/extract", "POST", status, code, label=label)
                save(code, r)
                if code == "upstream_status" and body:
                    REPORT.ok(body["error"].get("upstream_status") == 404, "upstream_status carries the upstream's 404")
            # The origin holds /stall.html: the first fetch takes the host's only slot.
            stalled = Connection(pithd.port)
            try:
                stalled.send(build_request("POST", "/extract", JSON, json_body(None, base + "/stall.html").encode()))
                if REPORT.ok(origin.stall_arrived.wait(IO_TIMEOUT), "the origin sees the stalled fetch"):
                    r = http_request(pithd.port, "POST", "/extract", JSON, json_body(None, base + "/article.html"))
                    CONTRACT.check(r, "/extract", "POST", 503, "overloaded", label="second fetch to a busy host")
                    save("overloaded_fetch", r)
                r = stalled.read_response()
                CONTRACT.check(r, "/extract", "POST", 504, "fetch_timeout",
                               label="upstream silent past the header timeout")
                save("fetch_timeout", r)
            finally:
                stalled.close()
                origin.release.set()
    finally:
        origin.close()
        not_tls.close()


def main():
    global CONTRACT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pithd", help="the pithd binary")
    parser.add_argument("--examples-out", help="write the responses seen here, one JSON file per case")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every check, not only failures")
    args = parser.parse_args()
    REPORT.verbose = args.verbose
    binary = str(Path(args.pithd).resolve())
    started = time.monotonic()
    print(f"contract test: {binary} against {PROTO}", flush=True)
    big_page = article_page(36000).encode("utf-8")  # about 4 MB: a worker needs a good part of a second
    cases = [
        lambda: case_main(binary, check_documents(binary)),
        lambda: case_auth(binary),
        lambda: case_inspector(binary),
        lambda: case_deadline(binary, big_page),
        lambda: case_overloaded(binary, big_page),
        lambda: case_connection_limit(binary),
        lambda: case_shutdown(binary),
        lambda: case_fetch(binary),
    ]
    try:
        CONTRACT = Contract()
    except Exception as e:  # noqa: BLE001 - unreadable documents end the run
        traceback.print_exc()
        REPORT.ok(False, "proto-docs/openapi.yaml and article.schema.json load", f"{type(e).__name__}: {e}")
        cases = []
    for case in cases:
        try:
            case()
        except Exception as e:  # noqa: BLE001 - report, do not hide, anything unexpected; go on with the next
            traceback.print_exc()
            REPORT.ok(False, "the case ran to its end", f"{type(e).__name__}: {e}")
    if args.examples_out:
        out = Path(args.examples_out)
        out.mkdir(parents=True, exist_ok=True)
        for name, record in EXAMPLES.items():
            (out / f"{name}.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    elapsed = time.monotonic() - started
    if REPORT.failures:
        print(f"FAILED: {len(REPORT.failures)} of {REPORT.checks} checks, {elapsed:.1f} s", flush=True)
        return 1
    print(f"passed: {REPORT.checks} checks, {elapsed:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
