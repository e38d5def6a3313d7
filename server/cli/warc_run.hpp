// `pith warc`: the HTML responses of WARC files, extracted. The main thread
// reads the records (warc_reader.hpp) and decodes their HTTP messages
// (http_payload.hpp); worker threads extract; the main thread writes one NDJSON
// line per extracted or failed response, in the files' order, and a summary
// of what was read, extracted, skipped and failed, by reason, on standard
// error.
#pragma once

#include "cli/args.hpp"

namespace pith::cli {

// Exit status: 0 when every file was read whole and no record failed, 3
// when a file could not be read, a record was damaged or an HTTP message
// could not be decoded (the other records are extracted all the same), or
// the output could not be written.
[[nodiscard]] int run_warc(const CliArgs& cli);

}  // namespace pith::cli
