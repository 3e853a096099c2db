-- GET /v1/public-ip asking for text/plain (the address and a line feed)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.get("/v1/public-ip", { Accept = "text/plain" })
