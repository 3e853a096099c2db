-- POST /v1/certificate-bundle: leaf <- intermediate <- root, RSA 2048, hostname check
-- (bench/data/cert-chain-3.json, from bench/gen-cert-bodies.sh)
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/certificate-bundle", workload.data("cert-chain-3.json"))
