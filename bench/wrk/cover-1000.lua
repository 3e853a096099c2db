-- POST /v1/cidr-cover: 1000 distinct IPv4 addresses in 10.20.0.0/16
-- (bench/data/cover-1000.json, 15 KB, from bench/gen-bodies.py)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-cover", workload.data("cover-1000.json"))
