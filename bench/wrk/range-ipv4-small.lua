-- POST /v1/range-to-cidrs, IPv4 10.0.0.5 .. 10.0.0.77: 73 addresses, 8 CIDRs
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/range-to-cidrs", [[{"start":"10.0.0.5","end":"10.0.0.77"}]])
