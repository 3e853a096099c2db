import { linesOf } from "./src/local/list-lines.ts";
import { parsePrefix } from "./src/domain/ip/prefix.ts";
import { specialReasonOf, specialReasonText } from "./src/domain/ip/special-reasons.ts";
const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const st = (n: string) => console.log(n.padEnd(10), mb());
const a = linesOf(new TextDecoder().decode(await Bun.file("/tmp/mem/entries.txt").bytes()), "a");
Bun.gc(true); st("read");
const mode = process.argv[2];
let n = 0, i = 0;
for (const e of a.entries) {
  if (mode === "gc" && ++i % 100000 === 0) Bun.gc(false);
  const p = parsePrefix(e); if (!p.ok) continue;
  if (mode === "parse") continue;
  const r = specialReasonOf(p.value); if (r) n += specialReasonText(e, r).length; }
st(mode);
