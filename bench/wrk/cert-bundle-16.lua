-- POST /v1/certificate-bundle: 16 RSA 2048 certificates (1 root, 3 intermediates, 12 leaves), leafIndex 0
-- (bench/data/cert-bundle-16.json, from bench/gen-cert-bodies.sh; up to 240 candidate links to check)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/certificate-bundle", workload.data("cert-bundle-16.json"))
