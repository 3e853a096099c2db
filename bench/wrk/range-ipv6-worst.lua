-- POST /v1/range-to-cidrs, IPv6 ::1 .. ffff:...:fffe: the worst case, 254 CIDRs (the spec maximum)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/range-to-cidrs", [[{"start":"::1","end":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"}]])
