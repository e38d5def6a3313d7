#!/bin/sh
# A bounded libFuzzer run: run_fuzzer.sh FUZZER SECONDS ARTIFACT_DIR SEED_DIR...
# New inputs go to a scratch directory that is removed afterwards; the seed
# directories are only read. A crash, leak or timeout leaves its input in
# ARTIFACT_DIR and fails the run. CI runs each harness for seconds; for hours:
#   tests/fuzz/run_fuzzer.sh build-asan/tests/fuzz/extract_fuzzer 14400 /tmp/artifacts \
#       tests/fixtures ../shared/corpus/readability-test-pages ../shared/corpus/trafilatura-dev/html
set -eu
fuzzer=$1
seconds=$2
artifacts=$3
shift 3
for seeds in "$@"; do
    [ -d "$seeds" ] || { echo "run_fuzzer.sh: seed directory $seeds not found" >&2; exit 2; }
done
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# -max_len keeps mutations fast (seeds are cut to it); -timeout fails any input
# slower than 10 s; -rss_limit_mb fails unbounded memory.
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$scratch" "$@"
