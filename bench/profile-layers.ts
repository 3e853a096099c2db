/**
 * Where a request's CPU time goes, by layer, from a CPU profile of bench/handler-micro.ts:
 *   node_modules/.bin/bun --cpu-prof --cpu-prof-interval=50 --cpu-prof-dir=/tmp/prof \
 *     bench/handler-micro.ts reverse-zones
 *   node_modules/.bin/bun bench/profile-layers.ts /tmp/prof/CPU.*.cpuprofile [--top N]
 * Only the samples of the measured rounds count (from the micro's warm-up's end, 500 ms after the
 * first sample inside its timing loop). Each sample goes to the deepest frame of its stack that
 * belongs to a layer, by the frame's file; a native call (no file: `new Response`, `randomUUID`,
 * `JSON.parse`) counts for the JavaScript that made it, except TypeBox's compiled checker
 * (`check`, made with `new Function`), which is validation, and Elysia's compiled route handler
 * (also made at run time), which is Elysia's. `--top N` lists each layer's N
 * heaviest frames (self time) too.
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Layers by the file a frame runs in, first match wins. */
const LAYERS: readonly [string, RegExp][] = [
  ["harness (Request made, answer read)", /\/bench\//],
  ["Elysia (router, compiled route)", /node_modules\/elysia\//],
  ["validation (TypeBox)", /node_modules\/@sinclair\/typebox\//],
  ["wrap (Traffic: id, in flight, route name)", /src\/adapters\/http\/(application|elysia-route)\.ts/],
  ["access log", /src\/process\/logger\.ts/],
  ["metrics", /src\/process\/metrics\.ts/],
  ["admission (loop budget)", /src\/adapters\/http\/admission\.ts/],
  ["body read + JSON.parse", /src\/adapters\/http\/json-body\.ts/],
  ["encoder", /src\/adapters\/http\/encoders\//],
  ["response (Responder: headers, id, new Response)", /src\/adapters\/http\/responder\.ts/],
  ["route handler (api-routes)", /src\/adapters\/http\/api-routes\.ts/],
  ["use case / domain", /src\/(domain|contract|operations|use-cases)/],
  ["other project code", /src\//],
];

const VALIDATION = "validation (TypeBox)";

function layerOf(frame: CallFrame): string | null {
  // Code made at run time (no file, but a line): TypeBox's checker, or Elysia's compiled route.
  if (frame.url === "" && frame.lineNumber >= 0)
    return frame.functionName === "check" ? VALIDATION : "Elysia (router, compiled route)";
  for (const [name, pattern] of LAYERS) if (pattern.test(frame.url)) return name;
  return null;
}

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt === -1 ? 0 : Number(args[topAt + 1]);
const file = args.find((arg, i) => !arg.startsWith("--") && i !== topAt + 1);
if (file === undefined) throw new Error("usage: bun bench/profile-layers.ts PROFILE.cpuprofile [--top N]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map<number, ProfileNode>();
const parent = new Map<number, number>();
for (const node of profile.nodes) {
  byId.set(node.id, node);
  for (const child of node.children ?? []) parent.set(child, node.id);
}
const stackOf = (id: number): CallFrame[] => {
  const frames: CallFrame[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const node = byId.get(at);
    if (node !== undefined) frames.push(node.callFrame);
  }
  return frames;
};

// Sample times, and the start of the measured rounds.
const times: number[] = [];
let t = 0;
for (const delta of profile.timeDeltas) {
  t += delta;
  times.push(t);
}
let loopStart = Number.NaN;
for (let i = 0; i < profile.samples.length; i++) {
  if (stackOf(profile.samples[i] ?? -1).some((frame) => frame.functionName === "timeFor")) {
    loopStart = times[i] ?? 0;
    break;
  }
}
const from = loopStart + 500_000;

const totals = new Map<string, number>();
const selfByLayer = new Map<string, Map<string, number>>();
let counted = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  if ((times[i] ?? 0) < from) continue;
  const frames = stackOf(profile.samples[i] ?? -1);
  const leaf = frames[0];
  if (leaf === undefined || frames.length <= 1) {
    idle++;
    continue;
  }
  let layer = "unattributed (runtime)";
  for (const frame of frames) {
    const found = layerOf(frame);
    if (found !== null) {
      layer = found;
      break;
    }
  }
  counted++;
  totals.set(layer, (totals.get(layer) ?? 0) + 1);
  const self = `${leaf.functionName || "(anonymous)"} ${leaf.url.replace(/^.*\/(src|bench|node_modules)\//, "$1/")}:${leaf.lineNumber}`;
  const selves = selfByLayer.get(layer) ?? new Map<string, number>();
  selves.set(self, (selves.get(self) ?? 0) + 1);
  selfByLayer.set(layer, selves);
}

console.log(`${counted} samples in the measured rounds (${idle} idle or root-only left out)`);
for (const [layer, count] of [...totals].sort((a, b) => b[1] - a[1])) {
  console.log(`${((100 * count) / counted).toFixed(1).padStart(5)} %  ${layer}`);
  if (top > 0) {
    const selves = [...(selfByLayer.get(layer) ?? [])].sort((a, b) => b[1] - a[1]).slice(0, top);
    for (const [self, n] of selves)
      console.log(`          ${((100 * n) / counted).toFixed(1).padStart(5)} %  ${self}`);
  }
}
