"""A Scrapy item pipeline that puts each scraped page's article on its item, from pithd.

Enable it in a project's settings and give items the page's HTML:

    ITEM_PIPELINES = {"pith_scraper.pipelines.PithExtractPipeline": 300}
    PITHD_URL = "http://pithd:8080"

    def parse(self, response):
        yield {"url": response.url, "html": response.text}

Items are gathered into batches and sent to pithd's POST /extract/batch (one
request for up to PITH_BATCH_ITEMS pages), or one POST /extract a page when
pithd has no batch endpoint. Each item comes back with the answer's fields under
"article" and without its HTML; an item pithd could not extract comes back with
"pith_error" instead (or is dropped with PITH_DROP_FAILED), so nothing is lost
silently. pithd's 503 (queue full, memory budget, draining) is retried after
its Retry-After, for the whole batch or for the lines that carry it.

Settings (all optional):
    PITHD_URL             pithd's base URL                      http://127.0.0.1:8080
    PITH_AUTH_TOKEN       bearer token, when pithd requires one none
    PITH_OPTIONS          extract options sent with every page  {}
    PITH_USE_BATCH        try POST /extract/batch first         True
    PITH_BATCH_ITEMS      pages per batch                       20
    PITH_BATCH_BYTES      request bytes per batch               4 MiB
    PITH_BATCH_WAIT       seconds a partial batch waits         0.25
    PITH_MAX_TRIES        tries per page before giving up       8
    PITH_MAX_RETRY_WAIT   longest wait between tries, seconds   30
    PITH_TIMEOUT          seconds per request to pithd          120
    PITH_HTML_FIELD, PITH_URL_FIELD, PITH_ARTICLE_FIELD, PITH_ERROR_FIELD
                          item field names                      html, url, article, pith_error
    PITH_KEEP_HTML        keep the HTML on the item             False
    PITH_DROP_FAILED      drop items pithd could not extract    False

Requests to pithd go through Twisted's HTTP client, not through Scrapy's
downloader: the crawl's delays, proxies, robots.txt, cache and retries are for
the sites crawled, not for the sidecar.
"""

import json
import logging
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from datetime import datetime, timezone
from io import BytesIO

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from twisted.internet import defer, reactor, task
from twisted.python import failure
from twisted.web.client import Agent, FileBodyProducer, HTTPConnectionPool, readBody
from twisted.web.http_headers import Headers

logger = logging.getLogger(__name__)

# Answer statuses worth another try: pithd is busy, draining or short of memory.
RETRYABLE_STATUSES = {429, 503}


@dataclass
class Page:
    """One item waiting for its article."""
    item: object
    request: dict  # the /extract request body
    size: int  # bytes of the request line
    done: defer.Deferred = field(default_factory=defer.Deferred)
    tries: int = 0
    last_error: dict = field(default_factory=dict)  # why the last try did not answer


class PithdError(Exception):
    """pithd could not be reached or answered something that is not an extract answer."""


class PithExtractPipeline:
    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.settings, crawler.stats)

    def __init__(self, settings, stats):
        self.base_url = settings.get("PITHD_URL", "http://127.0.0.1:8080").rstrip("/")
        self.token = settings.get("PITH_AUTH_TOKEN") or ""
        self.options = settings.getdict("PITH_OPTIONS")
        self.use_batch = settings.getbool("PITH_USE_BATCH", True)
        self.batch_items = max(1, settings.getint("PITH_BATCH_ITEMS", 20))
        self.batch_bytes = max(1, settings.getint("PITH_BATCH_BYTES", 4 << 20))
        self.batch_wait = settings.getfloat("PITH_BATCH_WAIT", 0.25)
        self.max_tries = max(1, settings.getint("PITH_MAX_TRIES", 8))
        self.max_retry_wait = settings.getfloat("PITH_MAX_RETRY_WAIT", 30.0)
        self.timeout = settings.getfloat("PITH_TIMEOUT", 120.0)
        self.html_field = settings.get("PITH_HTML_FIELD", "html")
        self.url_field = settings.get("PITH_URL_FIELD", "url")
        self.article_field = settings.get("PITH_ARTICLE_FIELD", "article")
        self.error_field = settings.get("PITH_ERROR_FIELD", "pith_error")
        self.keep_html = settings.getbool("PITH_KEEP_HTML", False)
        self.drop_failed = settings.getbool("PITH_DROP_FAILED", False)
        self.stats = stats
        self.pending = []
        self.pending_bytes = 0
        self.flush_call = None
        self.in_flight = set()
        self.pool = None
        self.agent = None

    # -- Scrapy's hooks

    def open_spider(self, spider):
        self.pool = HTTPConnectionPool(reactor, persistent=True)
        self.agent = Agent(reactor, connectTimeout=10, pool=self.pool)

    def process_item(self, item, spider):
        adapter = ItemAdapter(item)
        html = adapter.get(self.html_field)
        if not html:
            return item  # not a page: nothing to extract
        request = {"html": html, "options": self.options}
        url = adapter.get(self.url_field)
        if url:
            request["url"] = url
        page = Page(item, request, len(json.dumps(request)) + 1)
        if self.pending and self.pending_bytes + page.size > self.batch_bytes:
            self.flush()
        self.pending.append(page)
        self.pending_bytes += page.size
        if len(self.pending) >= self.batch_items or self.pending_bytes >= self.batch_bytes:
            self.flush()
        elif self.flush_call is None:
            self.flush_call = reactor.callLater(self.batch_wait, self.flush)
        return page.done

    def close_spider(self, spider):
        self.flush()
        waiting = defer.DeferredList(list(self.in_flight))
        waiting.addBoth(lambda _: self.pool.closeCachedConnections())
        return waiting

    # -- batches

    def flush(self):
        if self.flush_call is not None and self.flush_call.active():
            self.flush_call.cancel()
        self.flush_call = None
        pages, self.pending, self.pending_bytes = self.pending, [], 0
        if pages:
            sending = defer.ensureDeferred(self.send(pages))
            self.in_flight.add(sending)
            sending.addBoth(self.sent, sending)

    def sent(self, result, sending):
        self.in_flight.discard(sending)
        if isinstance(result, failure.Failure):
            logger.error("pith pipeline: %s", result.getErrorMessage())
        return None

    async def send(self, pages):
        """Sends pages until each has an answer or has used its tries."""
        try:
            while pages:
                if self.use_batch:
                    retry, wait = await self.send_batch(pages)
                else:
                    retry, wait = await self.send_each(pages)
                pages = [page for page in retry if self.another_try(page)]
                if pages:
                    self.stats.inc_value("pith/retries", len(pages))
                    await task.deferLater(reactor, wait, lambda: None)
        except Exception as error:  # noqa: BLE001: every page must get an answer
            logger.exception("pith pipeline: sending to pithd failed")
            for page in pages:
                self.fail(page, {"error": "pipeline_error", "message": str(error)})

    def another_try(self, page):
        page.tries += 1
        if page.tries < self.max_tries:
            return True
        self.fail(page, {**page.last_error,
                         "message": f"{page.last_error.get('message')} ({page.tries} tries)"})
        return False

    async def send_batch(self, pages):
        """One POST /extract/batch; returns the pages to try again and how long to wait."""
        body = b"".join(json.dumps(page.request).encode() + b"\n" for page in pages)
        try:
            status, headers, answer = await self.post("/extract/batch", body,
                                                      "application/x-ndjson")
        except PithdError as error:
            return self.unreachable(pages, error)
        if status in (404, 405):
            logger.info("pithd at %s has no POST /extract/batch: one request per page", self.base_url)
            self.use_batch = False
            return await self.send_each(pages)
        if status == 413 and len(pages) > 1:
            half = len(pages) // 2
            first, second = await defer.gatherResults([
                defer.ensureDeferred(self.send_batch(pages[:half])),
                defer.ensureDeferred(self.send_batch(pages[half:]))])
            return first[0] + second[0], max(first[1], second[1])
        if status in RETRYABLE_STATUSES:
            for page in pages:
                page.last_error = error_of(status, answer)
            return pages, self.retry_wait(headers, pages[0].tries)
        if status != 200:
            for page in pages:
                self.fail(page, error_of(status, answer))
            return [], 0.0

        answers = {}
        for line in answer.splitlines():
            try:
                parsed = json.loads(line)
                answers[int(parsed["item"])] = parsed
            except (ValueError, KeyError, TypeError):
                continue
        self.stats.inc_value("pith/batches")
        retry = []
        for index, page in enumerate(pages):
            line = answers.get(index)
            if line is None:
                self.fail(page, {"error": "missing_answer",
                                 "message": f"pithd's batch answer has no line for item {index}"})
                continue
            line_status = int(line.pop("http_status", 0))
            line.pop("item", None)
            if line_status in RETRYABLE_STATUSES:
                page.last_error = {"http_status": line_status, **line}
                retry.append(page)
            elif line_status == 200:
                self.succeed(page, line)
            else:
                self.fail(page, {"http_status": line_status, **line})
        return retry, self.retry_wait({}, max((p.tries for p in retry), default=0))

    async def send_each(self, pages):
        """One POST /extract a page, all at once; returns the pages to try again."""
        results = await defer.gatherResults(
            [defer.ensureDeferred(self.send_one(page)) for page in pages])
        retry = [page for page, wait in results if wait is not None]
        return retry, max((wait for _, wait in results if wait is not None), default=0.0)

    async def send_one(self, page):
        try:
            status, headers, answer = await self.post(
                "/extract", json.dumps(page.request).encode(), "application/json")
        except PithdError as error:
            retry, wait = self.unreachable([page], error)
            return page, (wait if retry else None)
        if status in RETRYABLE_STATUSES:
            page.last_error = error_of(status, answer)
            return page, self.retry_wait(headers, page.tries)
        try:
            parsed = json.loads(answer)
        except ValueError:
            parsed = None
        if status == 200 and isinstance(parsed, dict):
            self.succeed(page, parsed)
        else:
            self.fail(page, error_of(status, answer))
        return page, None

    def unreachable(self, pages, error):
        """pithd did not answer: worth another try, as it may be restarting."""
        logger.warning("pith pipeline: pithd at %s: %s", self.base_url, error)
        for page in pages:
            page.last_error = {"error": "unreachable", "message": str(error)}
        return pages, self.retry_wait({}, pages[0].tries)

    def retry_wait(self, headers, tries):
        """pithd's Retry-After when it gave one, else 1, 2, 4 ... seconds."""
        wait = parse_retry_after(headers.get("retry-after"))
        if wait is None:
            wait = float(2 ** min(tries, 10))
        return min(max(wait, 0.0), self.max_retry_wait)

    # -- answers

    def succeed(self, page, article):
        if page.done.called:
            return
        adapter = ItemAdapter(page.item)
        adapter[self.article_field] = article
        if not self.keep_html:
            adapter.pop(self.html_field, None)
        self.stats.inc_value("pith/extracted")
        page.done.callback(page.item)

    def fail(self, page, error):
        if page.done.called:
            return
        adapter = ItemAdapter(page.item)
        self.stats.inc_value(f"pith/failed/{error.get('error', 'unknown')}")
        if self.drop_failed:
            page.done.errback(DropItem(f"pithd: {error.get('error')}: {error.get('message', '')}"))
            return
        adapter[self.error_field] = error
        if not self.keep_html:
            adapter.pop(self.html_field, None)
        page.done.callback(page.item)

    async def post(self, path, body, content_type):
        headers = {b"Content-Type": [content_type.encode()], b"Accept": [b"application/json"]}
        if self.token:
            headers[b"Authorization"] = [b"Bearer " + self.token.encode()]
        try:
            requesting = self.agent.request(b"POST", (self.base_url + path).encode(),
                                            Headers(headers), FileBodyProducer(BytesIO(body)))
            requesting.addTimeout(self.timeout, reactor)
            response = await requesting
            reading = readBody(response)
            reading.addTimeout(self.timeout, reactor)
            answer = await reading
        except Exception as error:  # noqa: BLE001: connection refused, reset, timeout ...
            raise PithdError(f"{type(error).__name__}: {error}") from error
        answer_headers = {name.decode().lower(): values[-1].decode("latin-1")
                          for name, values in response.headers.getAllRawHeaders()}
        return response.code, answer_headers, answer


def parse_retry_after(value):
    """Seconds from a Retry-After header: delay-seconds or an HTTP date; None if absent or bad."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return (when - datetime.now(timezone.utc)).total_seconds()


def error_of(status, answer):
    """pithd's error body ({"error", "message"}) with the HTTP status, or a summary of what came."""
    try:
        parsed = json.loads(answer)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and "error" in parsed:
        return {"http_status": status, **parsed}
    return {"http_status": status, "error": "bad_answer",
            "message": answer[:300].decode("utf-8", "replace")}
