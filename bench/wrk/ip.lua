-- GET /v1/ip: the address as text, always
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.get("/v1/ip")
