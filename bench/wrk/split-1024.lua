-- POST /v1/cidr-split: 10.0.0.0/14 into /24s, 1024 subnets (about 17 KB out)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/cidr-split", '{"cidr":"10.0.0.0/14","prefixLength":24}')
