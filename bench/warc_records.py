"""WARC records as the benches and tests write them (bench/warc_speed.py,
tests/server/warc_test.py, tests/contract/deploy_check.py): a record from its
fields and block, and a response record of an HTML page."""

import gzip


def record(fields, block, version="WARC/1.1"):
    """The bytes of one record: `fields` [(name, value)], then Content-Length and `block` (bytes)."""
    head = version + "\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields)
    return (head + f"Content-Length: {len(block)}\r\n\r\n").encode() + block + b"\r\n\r\n"


def response(uri, index, html, gzipped=False):
    """A response record of `html` (bytes) served as text/html at `uri`, its id
    made from `index`; with `gzipped`, its own gzip member, as crawlers write."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(html) + html
    fields = [("WARC-Type", "response"), ("WARC-Target-URI", uri), ("WARC-Date", "2026-01-01T00:00:00Z"),
              ("WARC-Record-ID", f"<urn:uuid:00000000-0000-4000-8000-{index:012d}>"),
              ("Content-Type", "application/http; msgtype=response")]
    bytes_ = record(fields, http)
    return gzip.compress(bytes_, compresslevel=6) if gzipped else bytes_
