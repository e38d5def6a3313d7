// The inspector's page, GET /inspect: one self-contained HTML file
// (server/pithd/inspector/inspector.html, built into pithd), and the headers that
// keep what it shows from acting in its origin.
//
// The page calls POST /extract with "inspect": true and shows the answer. A
// page under inspection is only ever shown in <iframe sandbox> (no scripts,
// an opaque origin), under the policy below, which the frames inherit: no
// script but the inspector's own (by its hash), no request but to pithd, no
// image but data: URLs, no plugin, no form, and no framing of the inspector.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace pith::server {

struct InspectorPage {
    std::string html;
    // Content-Security-Policy, X-Frame-Options, nosniff, no referrer, COOP
    // (every answer of pithd is Cache-Control: no-store already).
    std::vector<std::pair<std::string, std::string>> headers;
};

// Built once, on first use; thread-safe.
[[nodiscard]] const InspectorPage& inspector_page();

}  // namespace pith::server
