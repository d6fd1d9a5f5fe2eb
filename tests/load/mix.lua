-- wrk script for tests/load/run.sh: 90% small requests and 10% explosive ones (every tenth
-- request of a connection), with latencies and outcomes counted per class.
--
-- Run with as many threads as connections (-t N -c N): a thread then has one connection,
-- so its responses come in the order of its requests and each latency is measured here.
-- Argument: "mix" (the default) or "small" (small requests only, for the unloaded baseline).

local ffi = require("ffi")
ffi.cdef [[
    typedef struct { long tv_sec; long tv_nsec; } timespec;
    int clock_gettime(int clock_id, timespec *tp);
]]
local now_ts = ffi.new("timespec")
local function now_us()
    ffi.C.clock_gettime(1, now_ts) -- CLOCK_MONOTONIC
    return tonumber(now_ts.tv_sec) * 1e6 + tonumber(now_ts.tv_nsec) / 1e3
end

local function term(pattern)
    return '{"type":"regex","value":"' .. pattern .. '"}'
end

-- Small requests: what a client of the API does all day; each answers in about a millisecond.
local small = {
    { "/v1/analyze/cardinality", '{"term":' .. term("[a-z]{3}") .. '}' },
    { "/v1/analyze/equivalent", '{"terms":[' .. term("(a|b)*abb") .. ',' .. term("[ab]*abb") .. ']}' },
    { "/v1/analyze/pattern", '{"term":' .. term("(a|b)*abb") .. '}' },
    { "/v1/analyze/length", '{"term":' .. term("(abc)?d") .. '}' },
    { "/v1/analyze/subset", '{"terms":[' .. term("[a-z]+") .. ',' .. term("[a-y]*") .. ']}' },
    { "/v1/compute/intersection", '{"terms":[' .. term("(abc|de){2}") .. ',' .. term("de.*") .. ',' .. term(".*abc") .. '],"options":{"response":{"format":"regex"}}}' },
    { "/v1/compute/difference", '{"terms":[' .. term("[a-z]") .. ',' .. term("[aeiou]") .. '],"options":{"response":{"format":"regex"}}}' },
    { "/v1/generate/strings", '{"term":' .. term("[a-c]{2}") .. ',"limit":5,"offset":2}' },
    { "/v1/compute/determinize", '{"term":' .. term("[0-9]{3}-[0-9]{4}") .. '}' },
}

-- Explosive requests from the stress corpus, each with a 1 s budget.
local budget = ',"options":{"execution":{"timeout":1000}}'
local explosive = {
    { "/v1/compute/determinize", '{"term":' .. term("(a|b)*a(a|b){24}") .. budget .. '}' },
    { "/v1/analyze/cardinality", '{"term":' .. term("[ac]{0,14}a[ac]{0,14}") .. budget .. '}' },
    { "/v1/compute/intersection", '{"terms":[' .. term("(b*(ab*){13})*") .. ',' .. term("(a*(ba*){17})*") .. '],"options":{"execution":{"timeout":1000},"response":{"format":"regex"}}}' },
    { "/v1/analyze/empty", '{"term":' .. term("((a{99}){99}){99}") .. budget .. '}' },
    { "/v1/analyze/cardinality", '{"term":' .. term(string.rep("\\\\w", 30000)) .. budget .. '}' },
    { "/v1/generate/strings", '{"term":' .. term("(a|b)*a(a|b){14}") .. ',"limit":100,"offset":1000000000,"pathOrder":"interleave"' .. budget .. '}' },
}

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

local only_small = false
local n_sent = 0
local class, started
-- Flat globals, one per class: done() copies them out of each thread.
lat_small, lat_explosive = {}, {}
codes_small, codes_explosive = {}, {}

function init(args)
    only_small = args[1] == "small"
    wrk.headers["Content-Type"] = "application/json"
end

function request()
    n_sent = n_sent + 1
    local pick
    if not only_small and n_sent % 10 == 0 then
        class, pick = "explosive", explosive[(n_sent / 10) % #explosive + 1]
    else
        class, pick = "small", small[n_sent % #small + 1]
    end
    started = now_us()
    return wrk.format("POST", pick[1], nil, pick[2])
end

function response(status, headers, body)
    local list = class == "small" and lat_small or lat_explosive
    list[#list + 1] = now_us() - started
    local code = tostring(status)
    if status ~= 200 then
        code = code .. " " .. (string.match(body, '"errorCode":"(%w+)"') or "?")
    end
    local codes = class == "small" and codes_small or codes_explosive
    codes[code] = (codes[code] or 0) + 1
end

local function percentile(sorted, p)
    if #sorted == 0 then return 0 end
    return sorted[math.max(1, math.ceil(#sorted * p / 100))]
end

function done(summary, latency, requests)
    local seconds = summary.duration / 1e6
    print(string.format("duration %.1f s, %d requests, %.1f req/s, socket errors: connect %d read %d write %d timeout %d",
        seconds, summary.requests, summary.requests / seconds, summary.errors.connect,
        summary.errors.read, summary.errors.write, summary.errors.timeout))
    for _, name in ipairs({ "small", "explosive" }) do
        local all, counts = {}, {}
        for _, thread in ipairs(threads) do
            for _, value in ipairs(thread:get("lat_" .. name)) do all[#all + 1] = value end
            for code, n in pairs(thread:get("codes_" .. name)) do counts[code] = (counts[code] or 0) + n end
        end
        if #all > 0 then
            table.sort(all)
            local codes = {}
            for code, n in pairs(counts) do codes[#codes + 1] = code .. ": " .. n end
            table.sort(codes)
            print(string.format("%-9s %7d requests %8.1f req/s  p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms  [%s]",
                name, #all, #all / seconds, percentile(all, 50) / 1e3, percentile(all, 99) / 1e3,
                all[#all] / 1e3, table.concat(codes, ", ")))
        end
    end
end
