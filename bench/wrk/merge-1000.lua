-- POST /v1/cidr-merge: IPv4 and IPv6 shuffled, 1000 entries with overlaps and neighbours
-- (bench/data/merge-1000.json, from bench/gen-cidr-lists-bodies.py: the peers' recipe and bytes)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-merge", workload.data("merge-1000.json"))
