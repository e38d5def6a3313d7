"""The compose example's scraper: a Scrapy crawl whose pages pithd turns into articles."""
