-- GET /v1/public-ip asking for JSON (PublicIpResult)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.get("/v1/public-ip", { Accept = "application/json" })
