import { linesOf } from "./src/local/list-lines.ts";
import { mergeMixedCidrs } from "./src/domain/cidr/merge-mixed.ts";
import { parsePrefix } from "./src/domain/ip/prefix.ts";
import { specialReasonOf, specialReasonText } from "./src/domain/ip/special-reasons.ts";
import { LOCAL_CIDR_LIMITS } from "./src/domain/limits.ts";
const mb = () => Math.round(process.memoryUsage().rss / 1048576);
const st = (n: string) => console.log(n.padEnd(10), mb());
const a = linesOf(new TextDecoder().decode(await Bun.file("/tmp/mem/entries.txt").bytes()), "a");
Bun.gc(true); st("read");
if (process.argv[2] === "domain") { const r = mergeMixedCidrs(a.entries, LOCAL_CIDR_LIMITS, { excludeSpecial: true }); st("merge"); }
else { let n = 0; for (const e of a.entries) { const p = parsePrefix(e); if (p.ok) { const r = specialReasonOf(p.value); if (r) n += specialReasonText(e, r).length; } } st("reasons"); }
