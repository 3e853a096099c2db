-- POST /v1/cidr-allocate: within 10.0.0.0/8, 999 used /24s at random, one /24
-- (bench/data/allocate-1000.json, from bench/gen-cidr-lists-bodies.py: the peers' recipe and bytes)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-allocate", workload.data("allocate-1000.json"))
