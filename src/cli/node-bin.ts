/**
 * The entry point of the `nettools` npm package (packages/cli), which runs on plain Node ≥ 20:
 * bundled by scripts/build-cli-package.ts, with the server left out (`nettools serve` says it
 * needs Bun). Everything else is the very same CLI as src/cli/main.ts.
 */
import { runAsProcess } from "./main.ts";

await runAsProcess();
