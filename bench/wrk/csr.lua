-- POST /v1/csr: an RSA 2048 request with its certificate and the issuing CA's as certificatePem
-- (bench/data/csr.json, from bench/gen-csr-body.sh): one RSA signature check, three DER reads
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "lib.lua")
workload.post("/v1/csr", workload.data("csr.json"))
