#!/bin/sh
# Example scraper beside the pithd sidecar (docker/docker-compose.yml). Each round
# posts every page in $PAGES_DIR to pithd as HTML, asks pithd to fetch every URL
# in $URLS_FILE, and prints one article JSON per line on stdout (NDJSON).
# Failures go to stderr and the round carries on.
#
#   PITHD_URL        pithd's base URL                  default http://pithd:8080
#   PITH_AUTH_TOKEN  bearer token, when pithd has one  default none
#   PAGES_DIR        folder of *.html pages            default /pages
#   URLS_FILE        one URL per line, # comments      default /scraper/urls.txt
#   INTERVAL         seconds between rounds            default 300
#   ONCE             1: one round, exit 0 if every page extracted, else 1
# POSIX sh: runs under the curl image's busybox sh and Debian's dash.
set -u

PITHD_URL=${PITHD_URL:-http://pithd:8080}
PAGES_DIR=${PAGES_DIR:-/pages}
URLS_FILE=${URLS_FILE:-/scraper/urls.txt}
INTERVAL=${INTERVAL:-300}
body=$(mktemp) || exit 1
trap 'rm -f "$body"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# post LABEL CONTENT_TYPE DATA: POST DATA (curl --data-binary syntax) to /extract.
# 503 means pithd's queue is full or it is draining: wait and retry, 3 tries.
post() {
    label=$1
    set -- -sS --max-time 30 -o "$body" -w '%{http_code}' \
        -H "Content-Type: $2" --data-binary "$3"
    if [ -n "${PITH_AUTH_TOKEN:-}" ]; then
        set -- "$@" -H "Authorization: Bearer $PITH_AUTH_TOKEN"
    fi
    tries=1
    while :; do
        code=$(curl "$@" "$PITHD_URL/extract" </dev/null) || true
        if [ "$code" = 200 ]; then
            cat "$body"
            echo
            return 0
        fi
        if [ "$code" != 503 ] || [ "$tries" -ge 3 ]; then
            echo "scraper: $label: HTTP ${code:-000} $(head -c 300 "$body" 2>/dev/null)" >&2
            return 1
        fi
        tries=$((tries + 1))
        sleep 2
    done
}

round() {
    failed=0
    for page in "$PAGES_DIR"/*.html; do
        [ -f "$page" ] || continue
        post "$page" 'text/html' "@$page" || failed=1
    done
    if [ -f "$URLS_FILE" ]; then
        # read without IFS= trims blanks; a last line without newline counts too.
        while read -r url || [ -n "$url" ]; do
            case $url in
                '' | '#'*) continue ;;
                *'"'* | *\\*) echo "scraper: $url: skipped, quote or backslash" >&2; failed=1; continue ;;
            esac
            post "$url" 'application/json' "{\"url\":\"$url\"}" || failed=1
        done <"$URLS_FILE"
    fi
    return "$failed"
}

while :; do
    round
    status=$?
    if [ "${ONCE:-0}" = 1 ]; then
        exit "$status"
    fi
    sleep "$INTERVAL" &
    wait $!
done
