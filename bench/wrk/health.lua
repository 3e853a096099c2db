-- GET /v1/health: the cheapest route; measures HTTP + framework overhead
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.get("/v1/health")
