#!/usr/bin/env bash
# The long, opt-in fuzz run (issue 7): the same properties as tests/hardening/fuzz.test.ts with
# many more cases. Bounded: FUZZ_RUNS cases per property (default 5000, roughly a minute or two
# on a small machine). A failure prints the seed and the shrunk counterexample; replay it with
#   FUZZ_SEED=<seed> FUZZ_RUNS=<runs> bun test tests/hardening/fuzz.test.ts
#
#   bash scripts/fuzz-long.sh            # 5000 cases per property, a fresh random seed
#   FUZZ_RUNS=20000 FUZZ_SEED=42 bash scripts/fuzz-long.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export FUZZ_RUNS="${FUZZ_RUNS:-5000}"
echo "fuzz-long: FUZZ_RUNS=${FUZZ_RUNS} FUZZ_SEED=${FUZZ_SEED:-random}"
exec node_modules/.bin/bun test tests/hardening/fuzz.test.ts
