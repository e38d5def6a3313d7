-- wrk script for pithd: each request POSTs the next corpus page to /extract as
-- raw HTML. The page list comes from the file named by PITH_LOAD_PAGES (one path
-- per line), read by every wrk thread into memory before the run starts.
-- done() prints one JSON line: throughput, latency percentiles and the count
-- of each response status, so the driver (bench/load.py) can check them.
-- Counting each status costs wrk a Lua call and a copy of every body, so it
-- is on only with PITH_LOAD_STATUSES=1; without it wrk's own count of
-- non-2xx answers is reported as "non_2xx" and the rest as "200".

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  pages = {}
  local list = assert(io.open(os.getenv("PITH_LOAD_PAGES"), "r"))
  for path in list:lines() do
    local file = assert(io.open(path, "rb"))
    table.insert(pages, file:read("*a"))
    file:close()
  end
  list:close()
  next_page = 0
  statuses = {}
  headers = { ["Content-Type"] = "text/html" }
  local query = os.getenv("PITH_LOAD_QUERY") or ""
  path = "/extract" .. query
end

function request()
  next_page = next_page % #pages + 1
  return wrk.format("POST", path, headers, pages[next_page])
end

if os.getenv("PITH_LOAD_STATUSES") == "1" then
  function response(status, response_headers, body)
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local counts = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      counts[tostring(status)] = (counts[tostring(status)] or 0) + n
    end
  end
  if next(counts) == nil then
    counts["200"] = summary.requests - summary.errors.status
    if summary.errors.status > 0 then
      counts["non_2xx"] = summary.errors.status
    end
  end
  local parts = {}
  for status, n in pairs(counts) do
    table.insert(parts, string.format('"%s":%d', status, n))
  end
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d},"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
    summary.errors.status, table.concat(parts, ",")))
end
