-- wrk script for tests/load/floor.sh: every request is a POST of the body in $BODY (a GET
-- when $BODY is empty), as JSON.
local body = os.getenv("BODY") or ""

function init(args)
    if body ~= "" then
        wrk.method = "POST"
        wrk.body = body
        wrk.headers["Content-Type"] = "application/json"
    end
end
