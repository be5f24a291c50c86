-- wrk script for scripts/soak: conditional GETs of the bundle at a bounded rate.
--
-- Each connection sends `GET /v1/spec` with `If-None-Match` set to the newest ETag its thread
-- has seen (so most answers are 304, and a new push gives one 200 per thread), then waits
-- `delay_ms` before the next request: rate ≈ connections × 1000 / (delay_ms + latency).
-- done() prints one `soak-wrk` line per thread: counts by status class and the last ETag.

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    delay_ms = tonumber(args[1] or "10")
    etag = nil
    ok = 0
    not_modified = 0
    server_errors = 0
    other = 0
end

function request()
    local headers = {}
    if etag then headers["If-None-Match"] = etag end
    return wrk.format("GET", "/v1/spec", headers)
end

function delay()
    return delay_ms
end

function response(status, headers, body)
    if status == 200 then
        ok = ok + 1
        etag = headers["ETag"] or headers["etag"] or headers["Etag"] or etag
    elseif status == 304 then
        not_modified = not_modified + 1
    elseif status >= 500 then
        server_errors = server_errors + 1
    else
        other = other + 1
    end
end

function done(summary, latency, requests)
    for _, thread in ipairs(threads) do
        io.write(string.format("soak-wrk ok=%d not_modified=%d server_errors=%d other=%d etag=%s\n",
            thread:get("ok"), thread:get("not_modified"), thread:get("server_errors"), thread:get("other"),
            thread:get("etag") or "-"))
    end
    local errors = summary.errors
    io.write(string.format("soak-wrk-summary requests=%d socket_errors=%d connect=%d read=%d write=%d timeout=%d\n",
        summary.requests, errors.connect + errors.read + errors.write + errors.timeout,
        errors.connect, errors.read, errors.write, errors.timeout))
end
