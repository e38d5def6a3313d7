#include "cli/warc_reader.hpp"

#include "cli/header_text.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <optional>

namespace pith::cli {

namespace {

constexpr std::size_t kReadBytes = 256U * 1024U;     // one fread
constexpr std::size_t kInflateBytes = 256U * 1024U;  // output of one inflate call
constexpr std::size_t kMaxHeaderBytes = 1U << 20U;   // a WARC header past this is damage
constexpr std::size_t kCompactBytes = 4U << 20U;     // consumed bytes kept before the buffer is compacted

// Whether `s` at `i` is a version line: "WARC/1." a digit, then the line's end.
bool version_line_at(std::string_view s, std::size_t i) noexcept {
    return s.compare(i, 7, "WARC/1.") == 0 && i + 8 < s.size() && s[i + 7] >= '0' && s[i + 7] <= '9' &&
           (s[i + 8] == '\r' || s[i + 8] == '\n');
}

}  // namespace

std::string_view WarcRecord::field(std::string_view name) const noexcept {
    for (const auto& [key, value] : fields) {
        if (iequals(key, name)) {
            return value;
        }
    }
    return {};
}

WarcReader::WarcReader(std::FILE* file, std::size_t max_block_bytes)
    : file_(file), max_block_bytes_(max_block_bytes) {}

WarcReader::~WarcReader() {
    if (z_ready_) {
        inflateEnd(&z_);
    }
}

// Appends the next fread's bytes to raw_ (gzip) or buffer_; false at the end.
bool WarcReader::read_raw() {
    if (eof_) {
        return false;
    }
    std::string& target = gzip_ ? raw_ : buffer_;
    if (gzip_ && raw_pos_ > 0) {
        raw_offset_ += raw_pos_;
        raw_.erase(0, raw_pos_);
        raw_pos_ = 0;
    }
    const std::size_t old = target.size();
    target.resize(old + kReadBytes);
    const std::size_t got = std::fread(target.data() + old, 1, kReadBytes, file_);
    target.resize(old + got);
    if (got < kReadBytes) {
        if (std::ferror(file_) != 0) {
            error_ = std::strerror(errno);
        }
        eof_ = true;
    }
    return got > 0;
}

// Inflates the next piece of the gzip stream into buffer_; false when
// nothing more can come. Members follow one another; a corrupt one is
// skipped to the next member's magic bytes.
bool WarcReader::inflate_more() {
    for (;;) {
        if (raw_pos_ == raw_.size() && !read_raw()) {
            return false;
        }
        if (!z_ready_) {
            if (inflateInit2(&z_, 15 + 16) != Z_OK) {
                error_ = "zlib could not start";
                eof_ = true;
                return false;
            }
            z_ready_ = true;
        }
        const std::size_t old = buffer_.size();
        buffer_.resize(old + kInflateBytes);
        z_.next_in = reinterpret_cast<Bytef*>(raw_.data() + raw_pos_);
        z_.avail_in = static_cast<uInt>(raw_.size() - raw_pos_);
        z_.next_out = reinterpret_cast<Bytef*>(buffer_.data() + old);
        z_.avail_out = static_cast<uInt>(kInflateBytes);
        const int status = inflate(&z_, Z_NO_FLUSH);
        const std::size_t used = (raw_.size() - raw_pos_) - z_.avail_in;
        const std::size_t produced = kInflateBytes - z_.avail_out;
        raw_pos_ += used;
        buffer_.resize(old + produced);
        if (status == Z_STREAM_END) {
            inflateReset(&z_);  // the next member, if any
        } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_MEM_ERROR) {
            skip_corrupt_member();
        } else if (status == Z_BUF_ERROR && used == 0 && produced == 0) {
            // Needs more input than there is: the file ends inside a member.
            if (!read_raw()) {
                return false;
            }
        }
        if (produced > 0) {
            return true;
        }
    }
}

// Moves raw_pos_ to the next gzip magic after the current position, and
// marks the jump in the uncompressed stream with a line break so that the
// next record's version line starts a line.
void WarcReader::skip_corrupt_member() {
    inflateReset(&z_);
    ++corrupt_members_;
    corrupt_offset_ = raw_offset_ + raw_pos_;
    buffer_.push_back('\n');
    std::size_t from = raw_pos_ + 1;
    for (;;) {
        for (std::size_t i = from; i + 2 < raw_.size(); ++i) {
            if (raw_[i] == '\x1f' && raw_[i + 1] == '\x8b' && raw_[i + 2] == '\x08') {
                raw_pos_ = i;
                return;
            }
        }
        const std::size_t keep = std::min<std::size_t>(2, raw_.size() - std::min(raw_.size(), from));
        raw_pos_ = raw_.size() - keep;
        if (!read_raw()) {
            raw_pos_ = raw_.size();
            return;
        }
        from = 0;
    }
}

// Makes at least `wanted` bytes available after pos_; false at the end.
bool WarcReader::fill(std::size_t wanted) {
    if (!started_) {
        started_ = true;
        if (!read_raw()) {
            return false;
        }
        if (buffer_.size() >= 2 && buffer_[0] == '\x1f' && buffer_[1] == '\x8b') {
            gzip_ = true;
            raw_ = std::move(buffer_);
            buffer_.clear();
        }
    }
    while (available() < wanted) {
        if (!(gzip_ ? inflate_more() : read_raw())) {
            return available() >= wanted;
        }
    }
    return true;
}

void WarcReader::compact() {
    if (pos_ >= kCompactBytes && pos_ * 2 >= buffer_.size()) {
        buffer_.erase(0, pos_);
        pos_ = 0;
    }
}

WarcReader::Event WarcReader::report_corrupt_member() {
    reported_corrupt_ = corrupt_members_;
    return report(corrupt_offset_, "corrupt gzip",
                  "a corrupt gzip member (at byte " + std::to_string(corrupt_offset_) + " of the file) was skipped");
}

WarcReader::Event WarcReader::report(std::uint64_t offset, const char* kind, std::string reason) {
    damage_offset_ = offset;
    damage_kind_ = kind;
    damage_ = std::move(reason);
    return Event::damaged;
}

// Goes on at the next version line at or after buffer_[from], or at the end.
void WarcReader::resync(std::size_t from) {
    consumed_ += from - pos_;
    pos_ = from;
    for (;;) {
        const std::string_view view(buffer_);
        for (std::size_t i = view.find("WARC/1.", pos_); i != std::string_view::npos; i = view.find("WARC/1.", i + 1)) {
            if (i + 8 >= view.size()) {
                break;  // may be one: read on
            }
            if ((i == 0 || view[i - 1] == '\n') && version_line_at(view, i)) {
                consumed_ += i - pos_;
                pos_ = i;
                return;
            }
        }
        // Keep the tail that may hold the start of a version line.
        const std::size_t keep = std::min<std::size_t>(9, available());
        consumed_ += available() - keep;
        pos_ = buffer_.size() - keep;
        compact();
        if (!fill(available() + 1)) {
            consumed_ += available();
            pos_ = buffer_.size();
            return;
        }
    }
}

WarcReader::Event WarcReader::next() {
    record_.version.clear();
    record_.fields.clear();
    record_.block.clear();
    compact();
    // Records are separated by two line breaks; be lenient about how many.
    for (;;) {
        const bool more = fill(1);
        if (corrupt_members_ > reported_corrupt_) {
            return report_corrupt_member();
        }
        if (!more) {
            return Event::end;
        }
        const char c = buffer_[pos_];
        if (c != '\r' && c != '\n') {
            break;
        }
        ++pos_;
        ++consumed_;
    }
    const std::uint64_t start = offset_of(pos_);
    record_.offset = start;

    // The header: lines up to the first empty one.
    std::size_t header_end = std::string::npos;  // index of the block's first byte
    std::size_t searched = pos_;
    for (;;) {
        const std::string_view view(buffer_);
        for (std::size_t nl = view.find('\n', searched); nl != std::string_view::npos; nl = view.find('\n', nl + 1)) {
            if (nl + 1 < view.size() && view[nl + 1] == '\n') {
                header_end = nl + 2;
                break;
            }
            if (nl + 2 < view.size() && view[nl + 1] == '\r' && view[nl + 2] == '\n') {
                header_end = nl + 3;
                break;
            }
            searched = nl;
        }
        if (header_end != std::string::npos) {
            break;
        }
        if (available() > kMaxHeaderBytes) {
            const Event e = report(start, "not WARC",
                                   "no end of the WARC header within " + std::to_string(kMaxHeaderBytes) + " bytes");
            resync(pos_ + 1);
            return e;
        }
        if (!fill(available() + 1)) {
            const Event e = report(start, "truncated", "the file ends inside a WARC header");
            consumed_ += available();
            pos_ = buffer_.size();
            return e;
        }
    }
    if (corrupt_members_ > reported_corrupt_) {
        const Event e = report_corrupt_member();
        resync(pos_ + 1);
        return e;
    }
    if (!version_line_at(buffer_, pos_)) {
        const Event e = report(start, "not WARC", "no WARC/1.x version line");
        resync(pos_ + 1);
        return e;
    }

    // Fields, "Name: value", a line starting with white space continuing the last.
    const std::string_view header = std::string_view(buffer_).substr(pos_, header_end - pos_);
    std::optional<std::uint64_t> length;
    bool bad_length = false;
    for (std::size_t line_start = 0; line_start < header.size();) {
        const std::size_t nl = std::min(header.find('\n', line_start), header.size());
        const std::string_view line = trim_field(header.substr(line_start, nl - line_start));
        const bool continues = line_start < header.size() && (header[line_start] == ' ' || header[line_start] == '\t');
        line_start = nl + 1;
        if (line.empty()) {
            continue;
        }
        if (record_.version.empty()) {
            record_.version = std::string(line);
            continue;
        }
        if (continues && !record_.fields.empty()) {
            record_.fields.back().second += " ";
            record_.fields.back().second += line;
            continue;
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            continue;  // not a field: ignored, as WARC readers do
        }
        record_.fields.emplace_back(std::string(trim_field(line.substr(0, colon))),
                                    std::string(trim_field(line.substr(colon + 1))));
        if (iequals(record_.fields.back().first, "Content-Length")) {
            const std::string& text = record_.fields.back().second;
            std::uint64_t value = 0;
            const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            bad_length = bad_length || ec != std::errc{} || end != text.data() + text.size() || text.empty();
            length = value;
        }
    }
    if (!length || bad_length) {
        const std::string given(record_.field("Content-Length"));
        const std::string reason = length ? "bad Content-Length \"" + given + "\"" : std::string("no Content-Length");
        const Event e = report(start, "bad length", reason);
        resync(header_end);
        return e;
    }
    consumed_ += header_end - pos_;
    pos_ = header_end;

    if (*length > max_block_bytes_) {
        for (std::uint64_t left = *length; left > 0;) {
            if (!fill(1)) {
                return report(start, "truncated", "the file ends inside a record's block");
            }
            const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(left, available()));
            pos_ += take;
            consumed_ += take;
            left -= take;
            compact();
        }
        return Event::too_large;
    }
    const auto block_bytes = static_cast<std::size_t>(*length);
    if (!fill(block_bytes)) {
        const Event e = report(start, "truncated",
                               "the file ends inside a record's block (" + std::to_string(available()) + " of " +
                                   std::to_string(block_bytes) + " bytes)");
        consumed_ += available();
        pos_ = buffer_.size();
        return e;
    }
    if (corrupt_members_ > reported_corrupt_) {
        const Event e = report_corrupt_member();
        resync(pos_);
        return e;
    }
    // The block ends with two line breaks (CRLF CRLF; LF LF and the file's
    // end are taken too).
    fill(block_bytes + 4);
    const std::string_view after = std::string_view(buffer_).substr(pos_ + block_bytes, 4);
    const bool ends = after.starts_with("\r\n") || after.starts_with("\n\n") || after.empty() ||
                      (after == "\n" && eof_);
    if (!ends) {
        const Event e = report(start, "bad length",
                               "the block does not end where Content-Length (" + std::to_string(block_bytes) +
                                   ") says");
        resync(pos_);
        return e;
    }
    record_.block.assign(buffer_, pos_, block_bytes);
    pos_ += block_bytes;
    consumed_ += block_bytes;
    return Event::record;
}

}  // namespace pith::cli
