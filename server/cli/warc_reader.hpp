// Reading WARC files (1.0 and 1.1) record by record, as crawlers write them:
// uncompressed, or each record its own gzip member (a ".warc.gz"). The reader
// streams: it holds one record's header and block at a time, and a block over
// the caller's limit is skipped without being held. A damaged record (a
// header that is not WARC's, a bad or missing Content-Length, a block that
// does not end where its length says, a corrupt gzip member, a file cut short)
// is reported with its offset and reason, and reading goes on at the next
// record found.
//
// Thread-safety: one reader per thread.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::cli {

struct WarcRecord {
    std::string version;  // "WARC/1.0" or "WARC/1.1"
    std::vector<std::pair<std::string, std::string>> fields;
    std::string block;
    std::uint64_t offset = 0;  // where the record starts, in the file's uncompressed bytes

    // The value of field `name` (case-insensitive), "" when absent.
    [[nodiscard]] std::string_view field(std::string_view name) const noexcept;
};

class WarcReader {
public:
    enum class Event {
        record,     // record() holds the next record
        too_large,  // record() holds its header; its block, over the limit, was skipped
        damaged,    // damage() says where and why; reading goes on after it
        end,        // the file is done (after an I/O error, error() says which)
    };

    // Reads `file` (not closed); blocks over `max_block_bytes` are skipped.
    WarcReader(std::FILE* file, std::size_t max_block_bytes);
    ~WarcReader();
    WarcReader(const WarcReader&) = delete;
    WarcReader& operator=(const WarcReader&) = delete;

    [[nodiscard]] Event next();
    [[nodiscard]] const WarcRecord& record() const noexcept { return record_; }
    [[nodiscard]] WarcRecord& record() noexcept { return record_; }
    [[nodiscard]] std::uint64_t damage_offset() const noexcept { return damage_offset_; }
    [[nodiscard]] const std::string& damage() const noexcept { return damage_; }
    // The damage's kind, for counts: "truncated", "not WARC", "bad length" or "corrupt gzip".
    [[nodiscard]] const char* damage_kind() const noexcept { return damage_kind_; }
    [[nodiscard]] const std::string& error() const noexcept { return error_; }
    [[nodiscard]] bool compressed() const noexcept { return gzip_; }

private:
    bool fill(std::size_t wanted);
    bool read_raw();
    bool inflate_more();
    void skip_corrupt_member();
    void compact();
    Event report(std::uint64_t offset, const char* kind, std::string reason);
    Event report_corrupt_member();
    void resync(std::size_t from);
    [[nodiscard]] std::size_t available() const noexcept { return buffer_.size() - pos_; }
    [[nodiscard]] std::uint64_t offset_of(std::size_t index) const noexcept { return consumed_ + index - pos_; }

    std::FILE* file_;
    std::size_t max_block_bytes_;
    bool started_ = false;
    bool gzip_ = false;
    bool eof_ = false;
    bool z_ready_ = false;
    std::size_t corrupt_members_ = 0;   // corrupt gzip members skipped: the stream jumps there
    std::size_t reported_corrupt_ = 0;  // of those, the ones reported
    std::uint64_t corrupt_offset_ = 0;  // in the file, of the last one
    z_stream z_{};
    std::string raw_;        // compressed input not yet inflated
    std::size_t raw_pos_ = 0;
    std::uint64_t raw_offset_ = 0;  // of raw_[0] in the file
    std::string buffer_;     // uncompressed bytes; pos_ the first not yet consumed
    std::size_t pos_ = 0;
    std::uint64_t consumed_ = 0;  // uncompressed bytes before buffer_[pos_]
    WarcRecord record_;
    std::uint64_t damage_offset_ = 0;
    std::string damage_;
    const char* damage_kind_ = "";
    std::string error_;
};

}  // namespace pith::cli
