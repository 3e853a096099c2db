-- POST /v1/cidr-usage: a pool of 20 /16s and 980 used /20-/28 blocks inside them
-- (bench/data/usage-1000.json, from bench/gen-cidr-lists-bodies.py: the peers' recipe and bytes)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-usage", workload.data("usage-1000.json"))
