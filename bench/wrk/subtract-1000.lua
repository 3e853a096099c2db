-- POST /v1/cidr-subtract, IPv6: 500 /48 includes minus 500 /64 excludes inside them
-- (bench/data/subtract-1000.json, 24 KB, from bench/gen-bodies.py; answer: 7611 CIDRs, ~226 KB)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-subtract", workload.data("subtract-1000.json"))
