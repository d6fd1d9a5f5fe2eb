-- wrk script for tests/load/floor.sh's real-pattern mix: every request is a POST of the next
-- line of the file in $BODIES (`PATH<TAB>BODY`, as tests/load/real_bodies.py writes them),
-- each thread starting at its own place in the list and going round it.
local bodies = {}
local next_body = 1
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("first", counter)
end

function init(args)
    for line in io.lines(os.getenv("BODIES")) do
        local path, body = line:match("^([^\t]+)\t(.*)$")
        bodies[#bodies + 1] = { path, body }
    end
    wrk.headers["Content-Type"] = "application/json"
    -- Threads spread over the list rather than sending the same requests in step.
    next_body = ((first or 1) * 7919) % #bodies + 1
end

function request()
    local pick = bodies[next_body]
    next_body = next_body % #bodies + 1
    return wrk.format("POST", pick[1], nil, pick[2])
end
