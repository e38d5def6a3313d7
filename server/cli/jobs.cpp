// One input of the pith CLI: read it, run the extractor, print the answer in
// the asked format. The JSON shape is article_json.hpp's.
#include "cli/jobs.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <exception>
#include <limits>
#include <system_error>

#include <nlohmann/json.hpp>

#include "pith/article_json.hpp"
#include "pith/extract.hpp"
#include "pith/markdown.hpp"
#include "pith/pages.hpp"
#include "pithd/fetcher.hpp"

namespace pith::cli {

namespace {

struct Input {
    std::string bytes;
    bool over_limit = false;       // more than the limit was there; bytes holds limit + 1
    std::uintmax_t file_size = 0;  // from fstat for regular files, else 0
};

// Reads a file, or standard input for "-", but never more than max_bytes + 1
// bytes (0 = no limit): an oversized input is refused without being buffered.
Result<Input> read_input(const std::string& path, std::size_t max_bytes) {
    const bool is_stdin = path == "-";
    const int fd = is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    auto io_error = [&](int err) {
        return Error{ErrorCode::io_error,
                     (is_stdin ? std::string("standard input") : path) + ": " +
                         std::generic_category().message(err)};
    };
    if (fd < 0) {
        return io_error(errno);
    }
    Input input;
    std::string& bytes = input.bytes;
    const std::size_t cap = max_bytes == 0 ? std::numeric_limits<std::size_t>::max() : max_bytes + 1;
    struct stat info {};
    if (::fstat(fd, &info) == 0) {
        if (S_ISDIR(info.st_mode)) {
            if (!is_stdin) {
                ::close(fd);
            }
            return io_error(EISDIR);
        }
        if (S_ISREG(info.st_mode) && info.st_size > 0) {
            input.file_size = static_cast<std::uintmax_t>(info.st_size);
            bytes.reserve(std::min(static_cast<std::size_t>(info.st_size), cap));
        }
    }
    constexpr std::size_t kChunk = 64U * 1024U;
    for (;;) {
        const std::size_t old_size = bytes.size();
        if (old_size >= cap) {
            if (!is_stdin) {
                ::close(fd);
            }
            input.over_limit = true;
            return input;
        }
        const std::size_t chunk = std::min(kChunk, cap - old_size);
        bytes.resize(old_size + chunk);
        const ssize_t n = ::read(fd, bytes.data() + old_size, chunk);
        if (n < 0 && errno == EINTR) {
            bytes.resize(old_size);
            continue;
        }
        if (n <= 0) {
            const int err = errno;
            bytes.resize(old_size);
            if (!is_stdin) {
                ::close(fd);
            }
            if (n < 0) {
                return io_error(err);
            }
            return input;
        }
        bytes.resize(old_size + static_cast<std::size_t>(n));
    }
}

// Invalid UTF-8 (a file name, a page's text) must not stop the output.
std::string dump(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One compact JSON line; with `file`, a leading "file" field. nlohmann's json
// keeps object keys sorted, so the field is spliced in front of the dump.
std::string json_line(const nlohmann::json& body, const std::string* file) {
    std::string out;
    if (file == nullptr) {
        out = dump(body);
    } else {
        const std::string rest = dump(body);  // "{...}"
        out = "{\"file\":" + dump(nlohmann::json(*file));
        if (rest.size() > 2) {
            out += ',';
            out.append(rest, 1);
        } else {
            out += '}';
        }
    }
    out += '\n';
    return out;
}


JobResult error_result(const std::string& file, const Error& error, int exit_code) {
    JobResult r;
    const nlohmann::json body = {
        {"error",
         {{"code", std::string(error_code_name(error.code))}, {"message", error.message}}},
    };
    r.out = json_line(body, &file);
    r.err = "pith: " + error.message + "\n";
    r.exit_code = exit_code;
    return r;
}

// The Article for an input refused before it was read whole.
extract::Article oversized_article(const Input& input, std::size_t limit) {
    extract::Article article;
    article.status = extract::Status::budget_exceeded;
    const std::string size = input.file_size > limit ? std::to_string(input.file_size)
                                                     : "more than " + std::to_string(limit);
    article.error = Error{ErrorCode::input_too_large, "input is " + size + " bytes, limit " + std::to_string(limit)};
    return article;
}

// The article read from the file and the pages after it (--max-pages above
// 1), fetched through pithd's fetcher under its defaults and the address
// guard (--fetch-allow).
extract::Article follow_pages(const CliArgs& cli, std::string html, const extract::ExtractOptions& options) {
    config::FetchConfig fetch;
    fetch.allow = cli.fetch_allow;
    extract::ArticleWalk walk(options);
    std::optional<std::string> next = walk.add_page(html, options.input.url, options.input.charset);
    html = std::string();
    while (next) {
        const auto deadline = std::chrono::steady_clock::now() + fetch.total_timeout;
        server::FetchResult fetched = server::fetch_now(fetch, std::move(*next), deadline);
        if (fetched.error) {
            walk.stop(fetched.error->code == ErrorCode::deadline_exceeded ? "deadline" : "fetch_failed",
                      fetched.error->message);
            break;
        }
        next = walk.add_page(fetched.body, std::move(fetched.final_url), std::move(fetched.charset));
    }
    return walk.finish();
}

JobResult extract_job(const CliArgs& cli, const std::string& file, bool several) {
    auto input = read_input(file, cli.options.budgets.max_input_bytes);
    if (!input) {
        return error_result(file, input.error(), kExitInput);
    }
    // Each job thread keeps its arena blocks from one input to the next.
    thread_local dom::BlockCache blocks(dom::kDefaultBlockCacheBytes);
    extract::ExtractOptions options = cli.options;
    options.runtime.block_cache = &blocks;
    if (cli.timeout.count() > 0) {
        options.runtime.deadline = std::chrono::steady_clock::now() + cli.timeout;
    }
    extract::Article article;
    if (input->over_limit) {
        article = oversized_article(*input, cli.options.budgets.max_input_bytes);
    } else if (options.pages.max_pages > 1) {
        article = follow_pages(cli, std::move(input->bytes), options);
    } else {
        article = extract::extract(input->bytes, options);
    }
    input->bytes = std::string();  // the answer of a large page needs the room
    JobResult r;
    const bool extracted =
        article.status == extract::Status::ok || article.status == extract::Status::best_attempt;
    r.exit_code = extracted ? kExitOk : kExitNothing;
    switch (cli.format) {
    case Format::json: {
        extract::JsonOptions json_options;
        json_options.diagnostics = cli.diagnostics;
        json_options.include_markdown = cli.with_markdown;
        json_options.include_clean_text = cli.with_text;
        r.out = json_line(extract::to_json(std::move(article), json_options), several ? &file : nullptr);
        return r;
    }
    case Format::html: r.out = article.content; break;
    case Format::text: r.out = article.text.value_or(std::string()); break;
    case Format::markdown:
        r.out = (cli.front_matter ? extract::yaml_front_matter(article, cli.options.input.url) : std::string()) +
                article.markdown.value_or(std::string());
        break;
    }
    if (!r.out.empty() && r.out.back() != '\n') {
        r.out += '\n';
    }
    if (!extracted) {
        r.err = "pith: " + file + ": " + std::string(extract::status_name(article.status));
        if (article.error) {
            r.err += ": " + article.error->message;
        }
        r.err += '\n';
    }
    return r;
}

JobResult readable_job(const CliArgs& cli, const std::string& file, bool several) {
    auto input = read_input(file, cli.options.budgets.max_input_bytes);
    if (!input) {
        return error_result(file, input.error(), kExitInput);
    }
    const bool readable = !input->over_limit && extract::is_probably_readable(input->bytes, cli.options.input.charset);
    JobResult r;
    r.out = json_line({{"readerable", readable}}, several ? &file : nullptr);
    r.exit_code = readable ? kExitOk : kExitNothing;
    return r;
}

// The one catch-all around a job: nothing escapes a worker thread.
}  // namespace

JobResult guarded_job(const CliArgs& cli, const std::string& file, bool several) noexcept {
    try {
        return cli.command == Command::readable ? readable_job(cli, file, several)
                                                : extract_job(cli, file, several);
    } catch (const std::exception& e) {
        try {
            return error_result(file, Error{ErrorCode::internal, file + ": " + e.what()},
                                kExitInput);
        } catch (...) {
        }
    } catch (...) {
        try {
            return error_result(file, Error{ErrorCode::internal, file + ": unknown exception"},
                                kExitInput);
        } catch (...) {
        }
    }
    // Even building the error failed (out of memory): report without allocating much.
    JobResult r;
    r.exit_code = kExitInput;
    return r;
}

}  // namespace pith::cli
