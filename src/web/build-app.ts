/**
 * Bundles the page's script (src/web/app.ts) for the browser and writes it to stdout. Run as a
 * child process by bundle.ts (a macro cannot call `Bun.build` itself). The client's TypeBox
 * schemas are replaced by build-time validators (src/web/generated-contract.ts), so the page
 * ships no TypeBox and compiles no code at run time.
 */
import { join } from "node:path";
import { withGeneratedContract } from "./generated-contract.ts";

const build = await Bun.build({
  entrypoints: [join(import.meta.dir, "app.ts")],
  target: "browser",
  format: "esm",
  minify: true,
  plugins: [withGeneratedContract],
});
const [output] = build.outputs;
if (!build.success || output === undefined || build.outputs.length !== 1) {
  for (const log of build.logs) console.error(log);
  console.error(`build-app: expected one output file, got ${build.outputs.length}`);
  process.exit(1);
}
process.stdout.write(await output.text());
