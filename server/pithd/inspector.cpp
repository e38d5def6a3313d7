#include "pithd/inspector.hpp"

#include <array>
#include <string_view>

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace pith::server {

namespace {

// server/pithd/inspector/inspector.html, as CMake wrote it out byte by byte.
constexpr unsigned char kInspectorBytes[] = {
#include "inspector_html.inc"
};
const std::string_view kInspectorHtml(reinterpret_cast<const char*>(kInspectorBytes), sizeof kInspectorBytes);

std::string sha256_base64(std::string_view text) {
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest.data());
    std::array<unsigned char, 4 * ((SHA256_DIGEST_LENGTH + 2) / 3) + 1> encoded{};
    const int length = EVP_EncodeBlock(encoded.data(), digest.data(), static_cast<int>(digest.size()));
    return std::string(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(length));
}

// The text of the page's one inline <script> element ("" when it has none).
std::string_view inline_script(std::string_view html) noexcept {
    constexpr std::string_view kOpen = "<script>";
    constexpr std::string_view kClose = "</script>";
    const std::size_t open = html.find(kOpen);
    if (open == std::string_view::npos) {
        return {};
    }
    const std::size_t start = open + kOpen.size();
    const std::size_t close = html.find(kClose, start);
    return close == std::string_view::npos ? std::string_view{} : html.substr(start, close - start);
}

// The Content-Security-Policy for a page whose only script is `script`.
std::string inspector_policy(std::string_view script) {
    // style-src allows inline styles because the frames inherit this policy
    // and the pages they show carry their own; nothing here can load a
    // stylesheet, font or image from anywhere, so no style can send data out.
    return "default-src 'none'; script-src 'sha256-" + sha256_base64(script) +
           "'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; frame-src 'none'; "
           "form-action 'none'; base-uri 'none'; frame-ancestors 'none'";
}

}  // namespace

const InspectorPage& inspector_page() {
    static const InspectorPage page = [] {
        InspectorPage built;
        built.html = std::string(kInspectorHtml);
        built.headers = {
            {"Content-Security-Policy", inspector_policy(inline_script(kInspectorHtml))},
            {"X-Frame-Options", "DENY"},
            {"X-Content-Type-Options", "nosniff"},
            {"Referrer-Policy", "no-referrer"},
            {"Cross-Origin-Opener-Policy", "same-origin"},
        };
        return built;
    }();
    return page;
}

}  // namespace pith::server
