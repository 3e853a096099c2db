-- POST /v1/cidr-contains: 500 blocks and 500 entries, both families
-- (bench/data/contains-1000.json, from bench/gen-cidr-lists-bodies.py: the peers' recipe and bytes)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-contains", workload.data("contains-1000.json"))
