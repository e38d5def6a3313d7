"""site: crawls from start URLs within their hosts and yields each HTML page for pithd."""

from urllib.parse import urlsplit

import scrapy


class SiteSpider(scrapy.Spider):
    """Start URLs come from -a urls_file=PATH (one a line, # comments) or -a start_urls=A,B.

    Every HTML page reached becomes an item {"url", "html"}; the pipeline puts its
    article on it. Links are followed on the start URLs' hosts only, to DEPTH_LIMIT.
    """

    name = "site"

    def __init__(self, urls_file=None, start_urls=None, **kwargs):
        super().__init__(**kwargs)
        urls = []
        if urls_file:
            with open(urls_file, encoding="utf-8") as lines:
                urls += [line.strip() for line in lines
                         if line.strip() and not line.lstrip().startswith("#")]
        if start_urls:
            urls += [url.strip() for url in start_urls.split(",") if url.strip()]
        if not urls:
            raise ValueError("give start URLs: -a urls_file=PATH or -a start_urls=URL,URL")
        self.start_urls = urls
        self.allowed_domains = sorted({urlsplit(url).hostname for url in urls})

    def start_requests(self):
        # Filtered like every other request, so a page that links back to a start
        # URL does not yield that page twice.
        for url in self.start_urls:
            yield scrapy.Request(url, callback=self.parse)

    def parse(self, response):
        content_type = response.headers.get("Content-Type", b"").decode("latin-1").lower()
        if not isinstance(response, scrapy.http.TextResponse) or "html" not in content_type:
            return
        yield {"url": response.url, "html": response.text}
        for link in response.css("a::attr(href)").getall():
            url = response.urljoin(link.strip())
            if urlsplit(url).scheme in ("http", "https"):
                yield scrapy.Request(url, callback=self.parse)
