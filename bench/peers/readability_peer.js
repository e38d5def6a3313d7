#!/usr/bin/env node
// readability_peer.js: Mozilla Readability.js 0.6 on jsdom or linkedom, timed
// in-process on a list of pages, for bench/compare.py (issue 6).
//
// Every page is read and decoded to a JS string before any timing, the way
// Readability's published figures were measured ("pages decoded by their meta
// charset"): a BOM, else the <meta> prescan of the first 1024 bytes, else
// UTF-8. Then one untimed pass checks that each page gives an article
// (parse() non-null with non-empty textContent) and warms the JIT up. A timed
// run is DOM parse + new Readability(doc).parse() for every page, the same
// work pith_bench_speed times for pith minus decoding; the best of --repeat
// runs counts. Prints one JSON object on stdout.
//
// Usage: node readability_peer.js --dom jsdom|linkedom [--repeat N]
//                                 [--pages-from LIST] [FILE...]
//   --pages-from LIST  a file with one HTML path per line (added to FILE...)
//   --url URL          the document URL (default http://fakehost/test/page.html,
//                      what pith_bench_speed gives pith; jsdom only, linkedom
//                      documents have no URL)
'use strict';

const fs = require('node:fs');
const { Readability } = require('@mozilla/readability');

// The URL Readability's own test harness uses; pith_bench_speed passes it to pith too.
const DEFAULT_URL = 'http://fakehost/test/page.html';

function usage(message) {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write('usage: node readability_peer.js --dom jsdom|linkedom [--repeat N] ' +
                       '[--url URL] [--pages-from LIST] [FILE...]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { dom: null, repeat: 3, url: DEFAULT_URL, files: [] };
  for (let i = 0; i < argv.length; ++i) {
    const arg = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${arg} wants a value`));
    if (arg === '--dom') {
      options.dom = value();
    } else if (arg === '--repeat') {
      options.repeat = Math.max(1, Number.parseInt(value(), 10) || 0);
    } else if (arg === '--url') {
      options.url = value();
    } else if (arg === '--pages-from') {
      const lines = fs.readFileSync(value(), 'utf8').split('\n');
      options.files.push(...lines.filter((line) => line.trim() !== ''));
    } else if (arg.startsWith('--')) {
      usage(`unknown argument "${arg}"`);
    } else {
      options.files.push(arg);
    }
  }
  if (options.dom !== 'jsdom' && options.dom !== 'linkedom') usage('--dom wants jsdom or linkedom');
  if (options.files.length === 0) usage('no pages given');
  return options;
}

// The charset label a browser would take from the markup: the HTML standard's
// <meta> prescan, reduced to what real pages use (charset=, or http-equiv
// Content-Type with a content="...charset=X"), over the first 1024 bytes with
// comments skipped. Returns '' when nothing is declared.
function prescanCharset(bytes) {
  const head = bytes.subarray(0, 1024).toString('latin1').replace(/<!--[\s\S]*?(-->|$)/g, '');
  for (const tag of head.matchAll(/<meta[\s/][^>]*>?/gi)) {
    const text = tag[0];
    const direct = /\scharset\s*=\s*["']?\s*([^\s"'>;/]+)/i.exec(text);
    if (direct) return direct[1];
    if (/http-equiv\s*=\s*["']?\s*content-type/i.test(text)) {
      const content = /content\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i.exec(text);
      const inner = content && /charset\s*=\s*["']?\s*([^\s"';]+)/i.exec(content[1]);
      if (inner) return inner[1];
    }
  }
  return '';
}

function decoderFor(label) {
  // The standard: UTF-16 named inside the markup means UTF-8 (it was decoded as
  // ASCII to be read at all), x-user-defined means windows-1252.
  const lower = label.toLowerCase();
  if (lower.startsWith('utf-16')) return new TextDecoder('utf-8');
  if (lower === 'x-user-defined') return new TextDecoder('windows-1252');
  try {
    return new TextDecoder(label);
  } catch {
    return new TextDecoder('utf-8');  // unknown label: ignored, as a browser does
  }
}

// Bytes -> JS string. TextDecoder itself strips a UTF-8 BOM; other BOMs pick the
// decoder. Invalid sequences become U+FFFD (TextDecoder is not fatal by default).
function decodePage(bytes) {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes), charset: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes), charset: 'utf-16le' };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes), charset: 'utf-16be' };
  }
  const decoder = decoderFor(prescanCharset(bytes));
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

// One page through the DOM and Readability. Returns the article or null; a
// throw counts as no article, so one bad page cannot end the run.
function makeExtractor(dom, url) {
  if (dom === 'jsdom') {
    const { JSDOM, VirtualConsole } = require('jsdom');
    // A console that goes nowhere: by default jsdom prints every CSS it cannot
    // parse to stderr, which a crawler would not do.
    const virtualConsole = new VirtualConsole();
    return (html) => {
      const window = new JSDOM(html, { url, virtualConsole }).window;
      try {
        return new Readability(window.document).parse();
      } finally {
        window.close();  // frees the window now, as pith frees its arena per page
      }
    };
  }
  const { parseHTML } = require('linkedom');
  return (html) => new Readability(parseHTML(html).document).parse();
}

function extractOrNull(extract, html) {
  try {
    return extract(html);
  } catch {
    return null;
  }
}

// Lets the event loop turn once, outside the timed region. Each new JSDOM queues
// a process.nextTick callback (its load event) that holds the window, and such
// callbacks (and WeakRef targets, which jsdom documents use) are released only
// when the current job ends: a loop that never yields keeps every closed window,
// ~7 MB each, until the heap runs out (519 trafilatura pages hit node's 4 GB).
const yieldToEventLoop = () => new Promise(setImmediate);

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const pages = options.files.map((file) => {
    const bytes = fs.readFileSync(file);
    return { file, bytes: bytes.length, ...decodePage(bytes) };
  });
  const totalBytes = pages.reduce((sum, page) => sum + page.bytes, 0);
  const extract = makeExtractor(options.dom, options.url);

  // Sanity and warm-up: a fast wrong answer cannot win.
  const insane = [];
  for (const page of pages) {
    const article = extractOrNull(extract, page.text);
    await yieldToEventLoop();
    const text = article && article.textContent ? article.textContent.trim() : '';
    if (text === '') insane.push(page.file);
  }

  let best = { seconds: Infinity, pageSeconds: [] };
  let sink = 0;  // keeps the results observable
  for (let run = 0; run < options.repeat; ++run) {
    if (global.gc) global.gc();  // start each run from a clean heap (node --expose-gc)
    const pageSeconds = new Array(pages.length);
    let seconds = 0;
    for (let i = 0; i < pages.length; ++i) {
      const t0 = process.hrtime.bigint();
      const article = extractOrNull(extract, pages[i].text);
      const s = Number(process.hrtime.bigint() - t0) / 1e9;
      sink += article && article.length ? article.length : 0;
      pageSeconds[i] = s;
      seconds += s;
      await yieldToEventLoop();
    }
    if (seconds < best.seconds) best = { seconds, pageSeconds };
  }

  const charsets = {};
  for (const page of pages) charsets[page.charset] = (charsets[page.charset] || 0) + 1;
  const result = {
    tool: `Readability.js ${require('@mozilla/readability/package.json').version} on ` +
          `${options.dom} ${require(`${options.dom}/package.json`).version}`,
    runtime: `node ${process.versions.node}`,
    docs: pages.length,
    bytes: totalBytes,
    repeat: options.repeat,
    seconds: best.seconds,
    docs_per_s: pages.length / best.seconds,
    mb_per_s: totalBytes / 1e6 / best.seconds,
    sane: pages.length - insane.length,
    insane: insane.slice(0, 10),
    charsets,
    peak_rss_mb: process.resourceUsage().maxRSS / 1024,  // maxRSS is in KiB
    page_seconds: best.pageSeconds,
    sink,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
