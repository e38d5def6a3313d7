// The article as a Markdown file, as Lectito's and defuddle's command lines
// write one: the Markdown itself is Article::markdown (RenderOptions::markdown).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "pith/article.hpp"

namespace pith::extract {

// YAML front matter for the article as a Markdown file: title, author, date,
// site, url (`url`, when not empty) and language, each only when known,
// between "---" lines, then a blank line.
[[nodiscard]] std::string yaml_front_matter(const Article& article, std::string_view url);

}  // namespace pith::extract
