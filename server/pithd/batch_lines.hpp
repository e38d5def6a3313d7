// The items of a POST /extract/batch body: its lines, split as the body's
// bytes arrive, each an owned string, so that a batch can give each line's
// share of the memory budget back once its item is answered instead of
// holding the whole body until the last line is written. Blank lines are no
// items. No HTTP library here; session.cpp feeds it from Beast's parser.
//
// Thread-safety: none; one request's reader owns it.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pith::server {

class BatchLines {
public:
    // At most `max_items` lines are kept; past them the rest is read and
    // dropped, and too_many() says so.
    explicit BatchLines(std::size_t max_items = std::numeric_limits<std::size_t>::max()) noexcept
        : max_items_(max_items) {}

    // Appends `bytes`, ending a line at each '\n'.
    void add(std::string_view bytes);
    // Ends the last line when the body does not end with '\n'.
    void finish();

    [[nodiscard]] bool too_many() const noexcept { return too_many_; }
    // The bytes of the lines kept.
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
    [[nodiscard]] std::vector<std::string> take() { return std::move(lines_); }

private:
    void end_line();

    std::size_t max_items_;
    std::string partial_;  // the line being read
    std::vector<std::string> lines_;
    std::size_t bytes_ = 0;
    bool too_many_ = false;
};

}  // namespace pith::server
