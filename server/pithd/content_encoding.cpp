#include "pithd/content_encoding.hpp"

#include <brotli/decode.h>
#include <zlib.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace pith::server {

namespace {

constexpr std::size_t kChunk = 64U * 1024U;

// Makes room for one more chunk at the end of `out`. A string that must grow
// takes a buffer twice its capacity (never past what the limit needs) and
// copies into it, so `hold` is asked for both buffers and `input_bytes`
// before the new one is taken.
std::optional<Error> make_room(std::string& out, std::size_t input_bytes, std::size_t max_bytes,
                               const HoldMemory& hold) {
    const std::size_t wanted = out.size() + kChunk;
    if (wanted > out.capacity()) {
        const std::size_t capacity = std::max(wanted, std::min(2 * out.capacity(), max_bytes + kChunk));
        if (hold) {
            if (std::optional<Error> refused = hold(input_bytes + out.capacity() + capacity)) {
                return refused;
            }
        }
        out.reserve(capacity);
    }
    out.resize(wanted);
    return std::nullopt;
}

Error too_large(std::size_t max_bytes) {
    return Error{ErrorCode::too_large,
                 "the decompressed body is over the limit of " + std::to_string(max_bytes) + " bytes"};
}

// gzip, zlib-wrapped deflate, or raw deflate (window_bits 15 + 32, 15, -15).
Result<std::string> inflate_with(std::string_view input, int window_bits, std::size_t max_bytes,
                                 const HoldMemory& hold) {
    z_stream stream{};
    if (inflateInit2(&stream, window_bits) != Z_OK) {
        return Error{ErrorCode::internal, "zlib could not start"};
    }
    const std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&stream, inflateEnd);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream.avail_in = static_cast<uInt>(input.size());
    std::string out;
    for (;;) {
        const std::size_t old_size = out.size();
        if (std::optional<Error> refused = make_room(out, input.size(), max_bytes, hold)) {
            return std::move(*refused);
        }
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + old_size);
        stream.avail_out = static_cast<uInt>(kChunk);
        const int status = inflate(&stream, Z_NO_FLUSH);
        out.resize(old_size + (kChunk - stream.avail_out));
        if (out.size() > max_bytes) {
            return too_large(max_bytes);
        }
        if (status == Z_STREAM_END) {
            return out;
        }
        if (status != Z_OK && !(status == Z_BUF_ERROR && stream.avail_in > 0)) {
            const std::string what = stream.msg != nullptr ? stream.msg : "truncated stream";
            return Error{ErrorCode::upstream_error, "corrupt compressed body: " + what};
        }
        if (stream.avail_in == 0 && stream.avail_out != 0) {
            return Error{ErrorCode::upstream_error, "corrupt compressed body: truncated stream"};
        }
    }
}

Result<std::string> unbrotli(std::string_view input, std::size_t max_bytes, const HoldMemory& hold) {
    const std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> decoder(
        BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
    if (!decoder) {
        return Error{ErrorCode::internal, "brotli could not start"};
    }
    const auto* next_in = reinterpret_cast<const std::uint8_t*>(input.data());
    std::size_t available_in = input.size();
    std::string out;
    for (;;) {
        const std::size_t old_size = out.size();
        if (std::optional<Error> refused = make_room(out, input.size(), max_bytes, hold)) {
            return std::move(*refused);
        }
        auto* next_out = reinterpret_cast<std::uint8_t*>(out.data() + old_size);
        std::size_t available_out = kChunk;
        const BrotliDecoderResult result =
            BrotliDecoderDecompressStream(decoder.get(), &available_in, &next_in, &available_out, &next_out, nullptr);
        out.resize(old_size + (kChunk - available_out));
        if (out.size() > max_bytes) {
            return too_large(max_bytes);
        }
        if (result == BROTLI_DECODER_RESULT_SUCCESS) {
            return out;
        }
        if (result == BROTLI_DECODER_RESULT_ERROR) {
            return Error{ErrorCode::upstream_error,
                         std::string("corrupt brotli body: ") +
                             BrotliDecoderErrorString(BrotliDecoderGetErrorCode(decoder.get()))};
        }
        if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) {
            return Error{ErrorCode::upstream_error, "corrupt brotli body: truncated stream"};
        }
    }
}

std::string trimmed_lower(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return out;
}

}  // namespace

Result<std::string> decode_content(std::string_view content_encoding, std::string body, std::size_t max_bytes,
                                   const HoldMemory& hold) {
    std::vector<std::string> codings;
    while (!content_encoding.empty()) {
        const std::size_t comma = std::min(content_encoding.find(','), content_encoding.size());
        std::string coding = trimmed_lower(content_encoding.substr(0, comma));
        content_encoding.remove_prefix(std::min(comma + 1, content_encoding.size()));
        if (!coding.empty() && coding != "identity") {
            codings.push_back(std::move(coding));
        }
    }
    if (codings.size() > 4) {
        return Error{ErrorCode::upstream_error, "more than 4 content codings"};
    }
    // The last coding listed was applied last, so it comes off first.
    for (auto it = codings.rbegin(); it != codings.rend(); ++it) {
        Result<std::string> decoded = Error{ErrorCode::upstream_error, "unsupported content coding \"" + *it + "\""};
        if (*it == "gzip" || *it == "x-gzip") {
            decoded = inflate_with(body, 15 + 32, max_bytes, hold);
        } else if (*it == "deflate") {
            // RFC 9110 means zlib-wrapped, but some servers send raw deflate.
            decoded = inflate_with(body, 15, max_bytes, hold);
            if (!decoded && decoded.error().code == ErrorCode::upstream_error) {
                decoded = inflate_with(body, -15, max_bytes, hold);
            }
        } else if (*it == "br") {
            decoded = unbrotli(body, max_bytes, hold);
        }
        if (!decoded) {
            return std::move(decoded).error();
        }
        body = std::move(decoded).value();
    }
    if (body.size() > max_bytes) {
        return too_large(max_bytes);
    }
    return body;
}

}  // namespace pith::server
