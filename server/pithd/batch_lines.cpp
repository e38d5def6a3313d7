// The lines of a batch body (batch_lines.hpp).
#include "pithd/batch_lines.hpp"

#include <algorithm>
#include <utility>

namespace pith::server {

void BatchLines::add(std::string_view bytes) {
    while (!bytes.empty()) {
        const std::size_t end = std::min(bytes.find('\n'), bytes.size());
        if (!too_many_) {  // past the cap nothing is kept, not even a line's start
            partial_.append(bytes.substr(0, end));
        }
        if (end == bytes.size()) {
            return;
        }
        end_line();
        bytes.remove_prefix(end + 1);
    }
}

void BatchLines::finish() { end_line(); }

void BatchLines::end_line() {
    std::string line = std::exchange(partial_, std::string());
    if (too_many_ || line.find_first_not_of(" \t\r") == std::string::npos) {
        return;  // a blank line is no item
    }
    if (lines_.size() == max_items_) {
        too_many_ = true;
        lines_.clear();  // the batch is refused: its lines can go now
        bytes_ = 0;
        return;
    }
    // A line grown by appends holds up to twice its size (the string doubles),
    // past what the batch reserved for it while it is read; not once kept.
    line.shrink_to_fit();
    bytes_ += line.size();
    lines_.push_back(std::move(line));
}

}  // namespace pith::server
