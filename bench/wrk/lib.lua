-- lib.lua: loaded by every workload script in this folder (dofile), never run alone.
--
-- A workload script only describes its request:
--     workload.get("/v1/health", { Accept = "application/json" })
--     workload.post("/v1/cidr-cover", workload.data("cover-1000.json"))
-- wrk builds that request once, so no Lua runs per request during a normal load.
--
-- At the end, done() prints one line that bench/bench.sh parses:
--     BENCHRESULT requests=N seconds=S rps=R p50_ms=.. p90_ms=.. p99_ms=.. max_ms=..
--                 non2xx=N errors=N connect=N read=N write=N timeout=N bytes=N
-- non2xx is wrk's own count of answers with status >= 400 unless BENCH_STRICT_2XX=1, which
-- counts every status outside 200..299 in a response() hook (exact, but wrk then spends
-- CPU handing every response to Lua). errors = socket errors (connect+read+write+timeout).
--
-- BENCH_PROBE=1 (bench.sh runs it before a load with one connection): the first answer's
-- status and the start of its body are printed as
--     BENCHPROBE status=200 bytes=N body=<first 200 characters, one line>
-- and wrk stops at once, so a broken or missing endpoint is reported instead of measured.

workload = {}

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"

function workload.data(name)
  local path = here .. "../data/" .. name
  local f = assert(io.open(path, "rb"), "missing request body " .. path)
  local text = f:read("*a")
  f:close()
  return text
end

local function use_path(path)
  -- a URL given with its own path on wrk's command line wins over the script's
  if wrk.path == nil or wrk.path == "" or wrk.path == "/" then wrk.path = path end
end

function workload.get(path, headers)
  use_path(path)
  wrk.method = "GET"
  for name, value in pairs(headers or {}) do wrk.headers[name] = value end
end

function workload.post(path, body, content_type)
  use_path(path)
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = content_type or "application/json"
end

local probe = os.getenv("BENCH_PROBE") == "1"
local strict = os.getenv("BENCH_STRICT_2XX") == "1"
local all_threads = {}

function setup(thread)
  all_threads[#all_threads + 1] = thread
end

bad_status = 0 -- per thread (each wrk thread has its own Lua state)

local function count_status(status, headers, body)
  if status < 200 or status > 299 then bad_status = bad_status + 1 end
end

local function probe_once(status, headers, body)
  local text = (body or ""):sub(1, 200):gsub("[\r\n]", " ")
  io.write(string.format("BENCHPROBE status=%d bytes=%d body=%s\n", status, #(body or ""), text))
  io.flush()
  wrk.thread:stop()
end

if probe then
  response = probe_once
elseif strict then
  response = count_status
end
-- with neither, `response` stays undefined and wrk never hands responses to Lua

function done(summary, latency, requests)
  local e = summary.errors
  local non2xx = e.status
  if strict and not probe then
    non2xx = 0
    for _, t in ipairs(all_threads) do non2xx = non2xx + (tonumber(t:get("bad_status")) or 0) end
  end
  local seconds = summary.duration / 1e6
  local function ms(us) return us / 1000 end
  io.write(string.format(
    "BENCHRESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f " ..
    "non2xx=%d errors=%d connect=%d read=%d write=%d timeout=%d bytes=%d\n",
    summary.requests, seconds, seconds > 0 and summary.requests / seconds or 0,
    ms(latency:percentile(50)), ms(latency:percentile(90)), ms(latency:percentile(99)), ms(latency.max),
    non2xx, e.connect + e.read + e.write + e.timeout, e.connect, e.read, e.write, e.timeout,
    summary.bytes))
end
