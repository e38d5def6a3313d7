// The help pages. The extraction options are listed from the option table,
// so a new option shows here without an edit.
#include "cli/help.hpp"

#include <algorithm>
#include <string_view>

#include "pith/option_table.hpp"

namespace pith::cli {

namespace {

constexpr std::string_view kHelpMain = R"(pith - extract the readable article from HTML pages

Usage:
  pith extract [options] FILE...|-    extract the article of each input
  pith readable [options] FILE...|-   Readability's isProbablyReaderable preflight
  pith warc [options] FILE...|-       extract the HTML responses of WARC files
  pith rules check DIR                load and check a folder of site rules
  pith rules show URL --rules-dir DIR the site rule that applies to a URL
  pith help [extract|readable|warc|rules]  show help (also: pith --help, pith COMMAND --help)
  pith --version                      print the version

Run 'pith help COMMAND' for each command's options, output formats and exit
codes.
)";

constexpr std::string_view kHelpExtractHead = R"(Usage: pith extract [options] FILE...|-

Extracts the main article from each HTML input. FILE '-' reads standard input
(at most once). Inputs in any charset; the charset is detected unless given.

Options of the command line:
  --url URL               document URL: base for resolving relative links
                          (default: none, links stay relative); its host
                          picks the site rule
  --rules-dir DIR         site rules (see 'pith help rules'): the rule for
                          --url's host applies
  --fetch-allow LIST      with --max-pages above 1: CIDRs and host names the
                          fetch of the next pages may reach besides public
                          addresses (comma-separated, repeatable), as pithd's
                          fetch.allow; the next pages are fetched from --url
  --content-selector CSS  the article is what this CSS selector list selects
                          (falls back to the strategy when it selects nothing)
  --remove-selectors CSS  removes what this CSS selector list selects first
  --rule-content XPATH    a rule of this run's own (repeatable: alternatives in
  --rule-title XPATH      order): the article, title, author and date are what
  --rule-author XPATH     the expressions select; --rule-remove strips what it
  --rule-date XPATH       selects. It takes the place of --rules-dir's rule
  --rule-remove XPATH
  --format FORMAT         json (default), html, text (clean text: blocks
                          separated by one blank line, list items and table
                          rows as lines) or markdown (GitHub-flavoured)
  --front-matter          with --format markdown: YAML front matter first
                          (title, author, date, site, url, language)
  --with FIELDS           add renderings to the JSON: markdown, text, or
                          markdown,text (only with --format json)
  --diagnostics           add per-pass diagnostics and stage timings to the
                          JSON (only with --format json)
  --charset LABEL         charset of the inputs, e.g. utf-8, windows-1252
                          (default: detect from BOM, <meta> and content)
  --jobs N                worker threads for several inputs, 1 to 1024
                          (default: number of hardware threads)
  --timeout-ms N          stop an input's extraction N ms after it starts
                          (status budget_exceeded, deadline_exceeded), as
                          pithd's request timeout does; 0: none (default)
  --model-fold N          for out-of-fold figures (bench/quality_table.py):
                          use the fitted models (page type, blocks, auto's
                          judge, title) fitted without fold N, 0 to 4, of
                          wcxb-dev's domains; confidence has no fold models
  -h, --help              show this help
  --                      end of options; later arguments are files

Extraction options (pithd's [extract] keys and /extract's options, by the
same names with '_' for '-'):
)";

constexpr std::string_view kHelpExtractTail = R"(  --fitness NAME=VALUE    the same as --fitness-NAME VALUE (repeatable)
N is a decimal integer without sign, X a decimal number. Options also take
--flag=VALUE; a boolean flag alone means true, --no-FLAG false.

Output:
  json  one compact JSON object on one line: title, byline, authors, dir,
        lang, content, textContent, length, excerpt, siteName, publishedTime,
        modifiedTime, image, favicon, readerable, status (ok|best_attempt|no_content|
        budget_exceeded|low_confidence), confidence, charset; absent fields
        are null. A budget refusal adds "error": {"code","message"}.
  html  the article's HTML (content) followed by a newline
  text  the article's clean text followed by a newline (the JSON's textContent
        keeps Readability's exact text, white space of the page included)
  markdown  the article as GitHub-flavoured Markdown followed by a newline
  Several inputs print NDJSON: one object per line, in input order, each
  starting with a "file" field; they need --format json. An input that cannot
  be read prints {"file":...,"error":{"code":"io_error","message":...}} and the
  others continue; an internal failure prints code "internal" the same way.

Exit codes (several inputs: the worst, 3 > 1 > 0):
  0  article extracted (status ok or best_attempt)
  1  nothing readable (status no_content or budget_exceeded), or an article
     under --min-confidence (low_confidence); output printed
  2  usage error (unknown option, bad number, no input)
  3  an input could not be read or processed
)";

constexpr std::string_view kHelpRules = R"(Usage: pith rules check DIR
       pith rules show URL --rules-dir DIR

Site rules: Full-Text RSS site configs (example.com.txt covers example.com and
www.example.com; .example.com.txt its subdomains) and Lectito's fingerprint
files (*.toml, [[fingerprints]] pattern = "example.com").

  check DIR   loads every rule file under DIR and prints how many files, rules
              and expressions it loaded, every file it rejected (path:line:
              reason) and the directives it reads but does not act on
  show URL    prints the rule that applies to URL's host, from --rules-dir

Exit codes: 0 every file loaded (check) or a rule applies (show); 1 some file
was rejected, or no rule applies; 2 usage error.
)";

constexpr std::string_view kHelpWarc = R"(Usage: pith warc [options] FILE...|-

Extracts the HTML responses of WARC files (WARC 1.0 and 1.1, uncompressed or
gzipped record by record, as crawlers write them; several files in turn, '-'
for standard input). A response record whose HTTP status is 2xx and whose
payload is HTML (by Content-Type, sniffed when there is none) is decoded
(chunked transfer coding; gzip, deflate or br content coding; the charset of
Content-Type) and extracted as pith extract would, with its WARC-Target-URI as
the page's URL. Reading streams: memory stays bounded whatever the files' size.

Options of the command line:
  --format FORMAT   json (default): one NDJSON line per extracted or failed
                    record; text or markdown: WARC conversion records of the
                    clean text or the Markdown, as Common Crawl's WET files
                    hold text
  --jobs N          worker threads, 1 to 1024 (default: hardware threads)
  --charset LABEL   the charset of pages whose Content-Type names none
  --timeout-ms, --with, --diagnostics, --rules-dir, --content-selector, --remove-selectors,
  --rule-*, --model-fold and every extraction option: as for pith extract
                    ('pith help extract')

Output, json: pith extract's object for each extracted record, with
  warc_file, warc_offset (of the record, in the file's uncompressed bytes),
  warc_target_uri, warc_record_id, warc_date and http_status. A damaged record
  (a header that is not WARC's, a bad Content-Length, a file cut short, a
  corrupt gzip member) prints {"warc_file","warc_offset","error":{"code":
  "damaged_record","message"}} and reading goes on at the next record; an HTTP
  message that cannot be decoded prints the record's fields and an error.
Output, text or markdown: a warcinfo record, then for each extracted record
  with text a conversion record (WARC-Refers-To: the response's record id;
  WARC-Target-URI and WARC-Date: the response's).
Records that are not HTML responses with a 2xx status are skipped. Standard
error shows progress on a terminal and ends with a summary: records read,
extracted (by status), skipped and failed (by reason); the counts add up.

Exit codes:
  0  every file read, no record damaged or failed
  2  usage error
  3  a file could not be read, a record was damaged or its HTTP message could
     not be decoded (the other records are extracted), or the output could
     not be written
)";

constexpr std::string_view kHelpReadable = R"(Usage: pith readable [options] FILE...|-

Runs Readability's isProbablyReaderable preflight on each HTML input. FILE '-'
reads standard input (at most once).

Options:
  --charset LABEL   charset of the inputs (default: detect)
  -h, --help        show this help
  --                end of options; later arguments are files

Output:
  One compact JSON object per input on its own line: {"readerable":true|false};
  several inputs add a leading "file" field (NDJSON, in input order). An input
  that cannot be read prints {"file":...,"error":{"code":"io_error",...}}.

Exit codes (several inputs: the worst, 3 > 1 > 0):
  0  readable
  1  not readable
  2  usage error (unknown option, no input)
  3  an input could not be read or processed
)";

constexpr std::size_t kFlagColumn = 26;  // where help text starts, as in the hand-written part
constexpr std::size_t kWidth = 78;
// Joins two words that a line must not split ("default 8192").
constexpr char kNoBreak = '\x01';

// `text` wrapped at kWidth, every line indented to kFlagColumn; the first
// line follows `lead` (the flag), or starts a line of its own when the flag
// is too long.
std::string wrapped(std::string lead, std::string_view text) {
    std::string out = "  " + lead;
    std::string line;
    if (out.size() + 2 > kFlagColumn) {
        out += '\n';
        line.assign(kFlagColumn, ' ');
    } else {
        line = out + std::string(kFlagColumn - out.size(), ' ');
        out.clear();
    }
    std::size_t words_on_line = 0;
    while (!text.empty()) {
        const std::size_t space = std::min(text.find(' '), text.size());
        const std::string_view word = text.substr(0, space);
        text.remove_prefix(std::min(space + 1, text.size()));
        if (words_on_line > 0 && line.size() + 1 + word.size() > kWidth) {
            out += line + '\n';
            line.assign(kFlagColumn, ' ');
            words_on_line = 0;
        }
        std::string shown(word);
        std::replace(shown.begin(), shown.end(), kNoBreak, ' ');
        line += (words_on_line > 0 ? " " : "") + shown;
        ++words_on_line;
    }
    return out + line + '\n';
}

std::string option_lines(const extract::OptionRow& row) {
    std::string lead = extract::option_flag(row);
    std::string text(row.help);
    switch (row.kind) {
    case extract::OptionKind::integer: lead += " N"; break;
    case extract::OptionKind::number: lead += " X"; break;
    case extract::OptionKind::choice: lead += " NAME"; break;
    case extract::OptionKind::boolean: lead = "--[no-]" + lead.substr(2); break;
    }
    const std::string range = extract::option_range_text(row);
    const std::string fallback = extract::option_default_text(row);
    if (!range.empty() && row.kind != extract::OptionKind::choice) {
        text += " (" + range + (fallback.empty() ? ")" : "; default" + std::string(1, kNoBreak) + fallback + ")");
    } else if (!fallback.empty()) {
        text += " (default" + std::string(1, kNoBreak) + fallback + ")";
    }
    return wrapped(std::move(lead), text);
}

}  // namespace

std::string help_text(Command topic) {
    switch (topic) {
    case Command::extract: {
        std::string text(kHelpExtractHead);
        for (const extract::OptionRow& row : extract::option_table()) {
            text += option_lines(row);
        }
        return text + std::string(kHelpExtractTail);
    }
    case Command::readable: return std::string(kHelpReadable);
    case Command::rules: return std::string(kHelpRules);
    case Command::warc: return std::string(kHelpWarc);
    case Command::help:
    case Command::version: break;
    }
    return std::string(kHelpMain);
}

}  // namespace pith::cli
