-- POST /v1/reverse-zones: 192.168.0.0/17, 128 zones of three octets (0.168.192.in-addr.arpa. ...
-- 127.168.192.in-addr.arpa.), the largest answer the endpoint gives (about 3.4 KB out)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/reverse-zones", '{"cidr":"192.168.0.0/17"}')
