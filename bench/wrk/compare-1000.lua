-- POST /v1/cidr-compare: a and b of 500 entries each, both families, sharing, nesting and
-- overlapping like two versions of one allow list (2132 result CIDRs, about 45 KB out)
-- (bench/data/compare-1000.json, from bench/gen-cidr-lists-bodies.py: the peers' recipe and bytes)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-compare", workload.data("compare-1000.json"))
