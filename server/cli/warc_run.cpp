#include "cli/warc_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/header_text.hpp"
#include "cli/http_payload.hpp"
#include "cli/jobs.hpp"
#include "cli/warc_reader.hpp"
#include "pith/article_json.hpp"
#include "pith/extract.hpp"

#ifndef PITH_VERSION
#error "PITH_VERSION is defined by CMake on the pith target"
#endif

namespace pith::cli {

namespace {

// Records read ahead of the one being written, per worker: bounds memory
// when an early page is slow and later ones are fast.
constexpr std::size_t kLookaheadPerWorker = 4;
constexpr std::size_t kFlushBytes = 256U * 1024U;
// A record's block holds the HTTP headers and a body that may be compressed:
// room past the extraction's input limit before a block is skipped unread.
constexpr std::size_t kBlockHeadroomBytes = 1U << 20U;

std::string dump(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// An Item's status when its extraction threw: counted as failed, not extracted.
constexpr const char* kInternalFailure = "internal error";

// One answer line, in input order: done once a worker filled it.
struct Item {
    std::string line;
    std::string status;  // the article's, for the summary; "" for an error line
    bool done = false;
    // An extraction's input.
    std::string body;
    std::string url;
    std::string charset;
    nlohmann::json fields;  // the record's, copied into the line
};

// Where each record went, for the summary; the counts add up to `records`.
struct Tally {
    std::uint64_t records = 0;
    std::map<std::string, std::uint64_t> extracted;  // by the article's status
    std::map<std::string, std::uint64_t> skipped;    // by reason
    std::map<std::string, std::uint64_t> failed;     // by reason
    std::uint64_t files_unread = 0;

    static std::uint64_t total(const std::map<std::string, std::uint64_t>& by) {
        std::uint64_t n = 0;
        for (const auto& [_, count] : by) {
            n += count;
        }
        return n;
    }
    static std::string listed(const std::map<std::string, std::uint64_t>& by) {
        std::string out;
        for (const auto& [reason, count] : by) {
            out += (out.empty() ? " (" : ", ") + reason + " " + std::to_string(count);
        }
        return out.empty() ? out : out + ")";
    }
    [[nodiscard]] std::string summary() const {
        return "pith warc: " + std::to_string(records) + " records: " + std::to_string(total(extracted)) +
               " extracted" + listed(extracted) + ", " + std::to_string(total(skipped)) + " skipped" + listed(skipped) +
               ", " + std::to_string(total(failed)) + " failed" + listed(failed) +
               (files_unread > 0 ? "; " + std::to_string(files_unread) + " files could not be read" : "") + "\n";
    }
};

// A fresh record id, a random (version 4) UUID.
std::string new_record_id() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    const std::uint64_t high = (random() & 0xFFFFFFFFFFFF0FFFULL) | 0x0000000000004000ULL;
    const std::uint64_t low = (random() & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;
    char text[64];
    using ull = unsigned long long;
    std::snprintf(text, sizeof text, "<urn:uuid:%08llx-%04llx-%04llx-%04llx-%012llx>", static_cast<ull>(high >> 32U),
                  static_cast<ull>((high >> 16U) & 0xFFFFU), static_cast<ull>(high & 0xFFFFU),
                  static_cast<ull>(low >> 48U), static_cast<ull>(low & 0xFFFFFFFFFFFFULL));
    return text;
}

// A WARC/1.1 record: the header's fields in order, then the block.
std::string warc_record(const std::vector<std::pair<std::string_view, std::string>>& fields, std::string_view type,
                        std::string_view block) {
    std::string out = "WARC/1.1\r\nWARC-Type: ";
    out += type;
    out += "\r\n";
    for (const auto& [name, value] : fields) {
        if (!value.empty()) {
            out.append(name).append(": ").append(value).append("\r\n");
        }
    }
    out += "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n";
    out.append(block);
    out += "\r\n\r\n";
    return out;
}

// The warcinfo record that opens pith warc's WARC output.
std::string warcinfo_record(const CliArgs& cli) {
    const auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    const std::string block =
        std::string("software: pith ") + PITH_VERSION +
        "\r\nformat: WARC File Format 1.1\r\n"
        "conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n"
        "description: the main content of each HTML response, as " +
        (cli.format == Format::markdown ? "Markdown" : "clean text") + "\r\n";
    return warc_record({{"WARC-Date", date}, {"WARC-Record-ID", new_record_id()},
                        {"Content-Type", "application/warc-fields"}},
                       "warcinfo", block);
}

// Extracts one item; never throws.
void extract_item(const CliArgs& cli, Item& item) noexcept {
    try {
        thread_local dom::BlockCache blocks(dom::kDefaultBlockCacheBytes);
        extract::ExtractOptions options = cli.options;
        options.runtime.block_cache = &blocks;
        if (cli.timeout.count() > 0) {
            options.runtime.deadline = std::chrono::steady_clock::now() + cli.timeout;
        }
        options.input.url = item.url;
        if (!item.charset.empty()) {
            options.input.charset = item.charset;
        }
        extract::Article article = extract::extract(item.body, options);
        item.body = std::string();
        item.status = std::string(extract::status_name(article.status));
        if (cli.format != Format::json) {
            const std::string text =
                (cli.format == Format::markdown ? article.markdown : article.text).value_or(std::string());
            if (!text.empty()) {
                const std::string content_type =
                    cli.format == Format::markdown ? "text/markdown; charset=utf-8" : "text/plain; charset=utf-8";
                item.line = warc_record({{"WARC-Target-URI", item.fields["warc_target_uri"].get<std::string>()},
                                         {"WARC-Date", item.fields["warc_date"].get<std::string>()},
                                         {"WARC-Record-ID", new_record_id()},
                                         {"WARC-Refers-To", item.fields["warc_record_id"].get<std::string>()},
                                         {"Content-Type", content_type}},
                                        "conversion", text);
            }
            return;
        }
        extract::JsonOptions json_options;
        json_options.diagnostics = cli.diagnostics;
        json_options.include_markdown = cli.with_markdown;
        json_options.include_clean_text = cli.with_text;
        nlohmann::json j = extract::to_json(std::move(article), json_options);
        j.update(item.fields);
        item.line = dump(j);
    } catch (const std::exception& e) {
        item.status = kInternalFailure;
        item.line = std::string();
        if (cli.format == Format::json) {
            try {
                nlohmann::json j = item.fields;
                j["error"] = {{"code", "internal"}, {"message", std::string("extraction failed: ") + e.what()}};
                item.line = dump(j);
            } catch (...) {  // out of memory: the summary still counts it
            }
        }
        std::fprintf(stderr, "pith warc: %s: %s\n", item.url.c_str(), e.what());
    }
}

class Pipeline {
public:
    Pipeline(const CliArgs& cli, std::size_t workers, Tally& tally)
        : cli_(cli), lookahead_(workers * kLookaheadPerWorker), tally_(tally) {
        for (std::size_t i = 0; i < workers; ++i) {
            threads_.emplace_back([this] { work(); });
        }
    }
    ~Pipeline() { close(); }
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    // An answer line that needs no worker (a failed record); WARC output has
    // no place for it (standard error has).
    void add_line(std::string line, std::string reason) {
        auto item = std::make_shared<Item>();
        item->line = cli_.format == Format::json ? std::move(line) : std::string();
        item->done = true;
        ++tally_.failed[reason];
        order_.push_back(std::move(item));
        write_ready(false);
    }
    void add_job(std::shared_ptr<Item> item) {
        while (order_.size() >= lookahead_) {
            write_ready(true);
        }
        {
            const std::lock_guard lock(mutex_);
            queue_.push_back(item);
        }
        changed_.notify_all();
        order_.push_back(std::move(item));
        write_ready(false);
    }
    // Writes everything that is left; false when the output failed.
    bool finish() {
        while (!order_.empty()) {
            write_ready(true);
        }
        flush();
        close();
        return !write_failed_;
    }

private:
    void work() {
        for (;;) {
            std::shared_ptr<Item> item;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return closing_ || !queue_.empty(); });
                if (queue_.empty()) {
                    return;
                }
                item = std::move(queue_.front());
                queue_.pop_front();
            }
            extract_item(cli_, *item);
            {
                const std::lock_guard lock(mutex_);
                item->done = true;
            }
            changed_.notify_all();
        }
    }
    // Writes the finished items at the front; with `wait`, waits for the first.
    void write_ready(bool wait) {
        while (!order_.empty()) {
            {
                std::unique_lock lock(mutex_);
                if (!order_.front()->done) {
                    if (!wait) {
                        return;
                    }
                    lock.unlock();
                    flush();  // stream what is done while the next is slow
                    lock.lock();
                    changed_.wait(lock, [&] { return order_.front()->done; });
                }
            }
            const std::shared_ptr<Item> item = std::move(order_.front());
            order_.pop_front();
            if (item->status == kInternalFailure) {
                ++tally_.failed[item->status];
            } else if (!item->status.empty()) {
                ++tally_.extracted[item->status];
            }
            out_ += item->line;
            if (out_.size() >= kFlushBytes) {
                flush();
            }
            wait = false;
        }
    }
    void flush() {
        if (!out_.empty() && std::fwrite(out_.data(), 1, out_.size(), stdout) != out_.size()) {
            write_failed_ = true;
        }
        out_.clear();
        if (std::fflush(stdout) != 0) {
            write_failed_ = true;
        }
    }
    void close() {
        {
            const std::lock_guard lock(mutex_);
            closing_ = true;
        }
        changed_.notify_all();
        threads_.clear();  // jthreads join
    }

    const CliArgs& cli_;
    std::size_t lookahead_;
    Tally& tally_;
    std::deque<std::shared_ptr<Item>> order_;  // main thread only; `done` under mutex_
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<Item>> queue_;  // guarded by mutex_
    bool closing_ = false;                     // guarded by mutex_
    std::string out_;
    bool write_failed_ = false;
    std::vector<std::jthread> threads_;  // last: joined first
};

// WARC-Target-URI without the angle brackets WARC 1.0 writers (wget) put
// around it and WARC 1.1 drops.
std::string target_uri(const WarcRecord& record) {
    std::string_view uri = record.field("WARC-Target-URI");
    if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') {
        uri = uri.substr(1, uri.size() - 2);
    }
    return std::string(uri);
}

nlohmann::json record_fields(const WarcRecord& record, const std::string& file) {
    return {{"warc_file", file},
            {"warc_offset", record.offset},
            {"warc_target_uri", target_uri(record)},
            {"warc_record_id", std::string(record.field("WARC-Record-ID"))},
            {"warc_date", std::string(record.field("WARC-Date"))}};
}

std::string error_line(nlohmann::json fields, std::string_view code, const std::string& message) {
    fields["error"] = {{"code", code}, {"message", message}};
    return dump(fields);
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), lower_ascii);
    return out;
}

// Shows how far the run is, on a terminal only, at most twice a second.
class Progress {
public:
    Progress() : shown_(isatty(STDERR_FILENO) == 1) {}
    void update(const Tally& tally) {
        if (!shown_) {
            return;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(500)) {
            return;
        }
        last_ = now;
        std::fprintf(stderr, "\rpith warc: %llu records read, %llu extracted ",
                     static_cast<unsigned long long>(tally.records),
                     static_cast<unsigned long long>(Tally::total(tally.extracted)));
        std::fflush(stderr);
        dirty_ = true;
    }
    void done() {
        if (dirty_) {
            std::fputs("\r\033[K", stderr);
        }
    }

private:
    bool shown_;
    bool dirty_ = false;
    std::chrono::steady_clock::time_point last_{};
};

// Reads one file's records into the pipeline.
void read_file(const CliArgs& cli, const std::string& path, Pipeline& pipeline, Tally& tally, Progress& progress) {
    const bool is_stdin = path == "-";
    std::FILE* file = is_stdin ? stdin : std::fopen(path.c_str(), "rb");
    if (file == nullptr) {
        std::fprintf(stderr, "pith warc: %s: %s\n", path.c_str(), std::strerror(errno));
        ++tally.files_unread;
        return;
    }
    const std::size_t max_body = cli.options.budgets.max_input_bytes;
    WarcReader reader(file, max_body == 0 ? SIZE_MAX : max_body + kBlockHeadroomBytes);
    for (;;) {
        const WarcReader::Event event = reader.next();
        if (event == WarcReader::Event::end) {
            break;
        }
        ++tally.records;
        progress.update(tally);
        if (event == WarcReader::Event::damaged) {
            std::fprintf(stderr, "pith warc: %s: damaged record at byte %llu: %s\n", path.c_str(),
                         static_cast<unsigned long long>(reader.damage_offset()), reader.damage().c_str());
            const nlohmann::json fields = {{"warc_file", path}, {"warc_offset", reader.damage_offset()}};
            pipeline.add_line(error_line(fields, "damaged_record", reader.damage()), reader.damage_kind());
            continue;
        }
        WarcRecord& record = reader.record();
        if (event == WarcReader::Event::too_large) {
            ++tally.skipped["too large"];
            continue;
        }
        const std::string type = lower(record.field("WARC-Type"));
        if (type != "response") {
            ++tally.skipped[type.empty() ? "no WARC-Type" : type + " record"];
            continue;
        }
        if (!record.block.starts_with("HTTP/")) {
            ++tally.skipped["not HTTP"];
            continue;
        }
        auto payload = decode_http_response(record.block, max_body == 0 ? SIZE_MAX : max_body);
        if (!payload) {
            if (payload.error().code == ErrorCode::too_large) {
                ++tally.skipped["too large"];
                continue;
            }
            pipeline.add_line(error_line(record_fields(record, path), error_code_name(payload.error().code),
                                         payload.error().message),
                              "HTTP message");
            continue;
        }
        if (!payload->html) {
            ++tally.skipped["not HTML"];
            continue;
        }
        if (payload->status < 200 || payload->status > 299) {
            ++tally.skipped["HTTP status not 2xx"];
            continue;
        }
        auto item = std::make_shared<Item>();
        item->fields = record_fields(record, path);
        item->fields["http_status"] = payload->status;
        item->body = std::move(payload->body);
        item->url = target_uri(record);
        item->charset = std::move(payload->charset);
        record.block = std::string();
        pipeline.add_job(std::move(item));
    }
    if (!reader.error().empty()) {
        std::fprintf(stderr, "pith warc: %s: %s\n", path.c_str(), reader.error().c_str());
        ++tally.files_unread;
    }
    if (!is_stdin) {
        std::fclose(file);
    }
}

}  // namespace

int run_warc(const CliArgs& cli) {
    const std::size_t workers =
        cli.jobs > 0 ? cli.jobs : std::max<std::size_t>(1, std::thread::hardware_concurrency());
    Tally tally;
    Progress progress;
    bool written = true;
    if (cli.format != Format::json) {
        const std::string info = warcinfo_record(cli);
        written = std::fwrite(info.data(), 1, info.size(), stdout) == info.size();
    }
    {
        Pipeline pipeline(cli, workers, tally);
        for (const std::string& path : cli.inputs) {
            read_file(cli, path, pipeline, tally, progress);
        }
        written = pipeline.finish() && written;
    }
    progress.done();
    const std::string summary = tally.summary();
    std::fwrite(summary.data(), 1, summary.size(), stderr);
    if (!written) {
        std::fputs("pith warc: cannot write the output\n", stderr);
        return kExitInput;
    }
    return Tally::total(tally.failed) > 0 || tally.files_unread > 0 ? kExitInput : kExitOk;
}

}  // namespace pith::cli
