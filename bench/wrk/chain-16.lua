-- POST /v1/certificate-chain: the same 16 RSA 2048 certificates as cert-bundle-16 (1 root, 3 intermediates,
-- 12 leaves, leafIndex 0; bench/data/cert-bundle-16.json): the bundle's signature checks plus the path search
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/certificate-chain", workload.data("cert-bundle-16.json"))
