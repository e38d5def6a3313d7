"""Settings of the example crawl; each PITH*/SCRAPER_* value can come from the environment."""

import os

BOT_NAME = "pith_scraper"
SPIDER_MODULES = ["pith_scraper.spiders"]
NEWSPIDER_MODULE = "pith_scraper.spiders"

# The sidecar: see pith_scraper/pipelines.py for every PITH_* setting.
ITEM_PIPELINES = {"pith_scraper.pipelines.PithExtractPipeline": 300}
PITHD_URL = os.environ.get("PITHD_URL", "http://127.0.0.1:8080")
PITH_AUTH_TOKEN = os.environ.get("PITH_AUTH_TOKEN", "")
PITH_BATCH_ITEMS = int(os.environ.get("PITH_BATCH_ITEMS", "20"))

# A polite crawler of the sites it visits.
USER_AGENT = "pith-example-scraper/0.1"
ROBOTSTXT_OBEY = True
CONCURRENT_REQUESTS_PER_DOMAIN = 4
DOWNLOAD_DELAY = float(os.environ.get("SCRAPER_DOWNLOAD_DELAY", "0.5"))
DEPTH_LIMIT = int(os.environ.get("SCRAPER_DEPTH_LIMIT", "2"))
CLOSESPIDER_PAGECOUNT = int(os.environ.get("SCRAPER_MAX_PAGES", "200"))

# One article a line on standard output, unless SCRAPER_OUTPUT names a file.
FEEDS = {os.environ.get("SCRAPER_OUTPUT", "stdout:"): {"format": "jsonlines", "encoding": "utf8"}}

# No telnet console: a shell into the crawl on a port, not wanted in a container.
TELNETCONSOLE_ENABLED = False
REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"
LOG_LEVEL = os.environ.get("SCRAPER_LOG_LEVEL", "INFO")
