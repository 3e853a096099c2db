/**
 * The container image and Kubernetes manifests, checked by parsing (no container engine or
 * cluster runs here): probes, non-root, read-only root, health check, shutdown timing, and
 * that the pieces refer to each other correctly. YAML through Bun's built-in `Bun.YAML`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const KUBE = join(ROOT, "deploy/kubernetes");

type Yaml = Record<string, unknown>;

function manifest(name: string): Yaml {
  const parsed = Bun.YAML.parse(readFileSync(join(KUBE, name), "utf8"));
  expect(Array.isArray(parsed)).toBe(false); // one document per file
  return parsed as Yaml;
}

/** Follows a dotted path ("spec.template.spec"); array indexes are numbers in the path. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** Dockerfile → instructions, continuation lines joined, comments dropped, stage numbered. */
function dockerfile(): Instruction[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const logical: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    logical.push(pending + line);
    pending = "";
  }
  let stage = -1;
  return logical.map((line) => {
    const space = line.indexOf(" ");
    const keyword = line.slice(0, space).toUpperCase();
    if (keyword === "FROM") stage += 1;
    return { keyword, args: line.slice(space + 1).trim(), stage };
  });
}

const deployment = manifest("deployment.yaml");
const service = manifest("service.yaml");
const hpa = manifest("hpa.yaml");
const pdb = manifest("pdb.yaml");
const networkPolicy = manifest("networkpolicy.yaml");
const ingress = manifest("examples/ingress.yaml");
const serviceMonitor = manifest("examples/servicemonitor.yaml");
const podSpec = at(deployment, "spec.template.spec") as Yaml;
const containers = podSpec.containers as Yaml[];
const container = containers[0] as Yaml;
const podLabels = at(deployment, "spec.template.metadata.labels") as Record<string, string>;
const env = new Map(
  (container.env as { name: string; value: unknown }[]).map((entry) => [entry.name, entry.value]),
);

function matches(selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => podLabels[key] === value);
}

describe("Dockerfile", () => {
  const instructions = dockerfile();
  const stages = instructions.filter((instruction) => instruction.keyword === "FROM");
  const last = stages.length - 1;
  const final = instructions.filter((instruction) => instruction.stage === last);
  const one = (keyword: string) => {
    const found = final.filter((instruction) => instruction.keyword === keyword);
    expect(found).toHaveLength(1);
    return (found[0] as Instruction).args;
  };

  test("is multi-stage: builds in the official Bun image, pinned to the version the project uses", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = /^oven\/bun:(\d+\.\d+\.\d+)\S*\s+AS\s+(\S+)$/i.exec((stages[0] as Instruction).args);
    expect(build).not.toBeNull();
    const bunVersion = (
      JSON.parse(readFileSync(join(ROOT, "node_modules/bun/package.json"), "utf8")) as { version: string }
    ).version;
    expect(build?.[1]).toBe(bunVersion);
    const runs = instructions.filter(
      (instruction) => instruction.stage === 0 && instruction.keyword === "RUN",
    );
    expect(runs.some((run) => /bun install\b.*--frozen-lockfile/.test(run.args))).toBe(true);
    expect(runs.some((run) => /bun build --compile\b/.test(run.args))).toBe(true);
  });

  test("the runtime stage is a small glibc base and copies only the executable", () => {
    expect((stages[last] as Instruction).args).toMatch(
      /^(gcr\.io\/distroless\/(base|base-nossl|cc)-debian\d+|debian:\S+-slim)/,
    );
    expect((stages[last] as Instruction).args).not.toMatch(/:latest$/);
    const copies = final.filter(
      (instruction) => instruction.keyword === "COPY" || instruction.keyword === "ADD",
    );
    expect(copies).toHaveLength(1);
    expect(copies[0]?.args).toMatch(/--from=\S+/);
    expect(copies[0]?.args).toMatch(/network-tools-api\s+\S*network-tools-api$/);
  });

  test("runs as a non-root user, exposes the port, stops with SIGTERM", () => {
    const user = one("USER");
    expect(user.split(":")[0]).not.toMatch(/^(root|0)$/);
    expect(one("EXPOSE")).toBe("3000");
    expect(one("STOPSIGNAL")).toBe("SIGTERM");
    expect(one("ENTRYPOINT")).toBe('["/usr/local/bin/network-tools-api"]');
  });

  test("has a HEALTHCHECK through the executable's own probe (no curl in distroless)", () => {
    const check = one("HEALTHCHECK");
    expect(check).toContain('CMD ["/usr/local/bin/network-tools-api", "healthcheck"]');
    expect(check).toMatch(/--interval=\d+s/);
    expect(check).toMatch(/--timeout=\d+s/);
    // The subcommand exists, and probes /v1/health.
    expect(readFileSync(join(ROOT, "src/main.ts"), "utf8")).toContain('process.argv[2] === "healthcheck"');
    expect(readFileSync(join(ROOT, "src/process/healthcheck.ts"), "utf8")).toContain("/v1/health");
  });

  test(".dockerignore keeps node_modules, dist and tests out of the context", () => {
    const lines = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"));
    expect(lines[0]).toBe("*"); // allow-list
    for (const allowed of lines.slice(1)) expect(allowed.startsWith("!")).toBe(true);
    expect(lines).not.toContain("!node_modules");
    expect(lines).not.toContain("!dist");
    expect(lines).toContain("!src/");
  });
});

describe("Kubernetes manifests", () => {
  test("Deployment: probes on /v1/health at the container's port", () => {
    expect(deployment.apiVersion).toBe("apps/v1");
    expect(deployment.kind).toBe("Deployment");
    expect(containers).toHaveLength(1);
    const ports = container.ports as { name: string; containerPort: number }[];
    expect(ports.map((port) => port.containerPort)).toEqual([
      Number(env.get("PORT")),
      Number(env.get("METRICS_PORT")),
    ]);
    for (const probe of ["readinessProbe", "livenessProbe"]) {
      expect(at(container, `${probe}.httpGet.path`)).toBe("/v1/health");
      expect(ports.map((port) => port.name)).toContain(at(container, `${probe}.httpGet.port`) as string);
    }
    expect(at(deployment, "spec.selector.matchLabels")).toEqual(podLabels);
  });

  test("Deployment: resource requests and limits for CPU and memory, WORKERS within the CPU limit", () => {
    for (const kind of ["requests", "limits"]) {
      expect(at(container, `resources.${kind}.cpu`)).toBeDefined();
      expect(at(container, `resources.${kind}.memory`)).toBeDefined();
    }
    const cpuLimit = String(at(container, "resources.limits.cpu"));
    const cores = cpuLimit.endsWith("m") ? Number(cpuLimit.slice(0, -1)) / 1000 : Number(cpuLimit);
    expect(env.get("WORKERS")).toMatch(/^[0-9]+$/); // never "auto": it would count the node's CPUs
    expect(Number(env.get("WORKERS"))).toBeLessThanOrEqual(Math.max(1, Math.ceil(cores)));
  });

  test("Deployment: non-root, read-only root, no privilege escalation, every capability dropped", () => {
    expect(at(podSpec, "securityContext.runAsNonRoot")).toBe(true);
    expect(at(podSpec, "securityContext.runAsUser")).not.toBe(0);
    expect(at(container, "securityContext.runAsNonRoot")).toBe(true);
    expect(at(container, "securityContext.readOnlyRootFilesystem")).toBe(true);
    expect(at(container, "securityContext.allowPrivilegeEscalation")).toBe(false);
    expect(at(container, "securityContext.capabilities.drop")).toEqual(["ALL"]);
    expect(podSpec.automountServiceAccountToken).toBe(false);
  });

  test("Deployment: SHUTDOWN_DELAY_MS is set, and the grace period outlasts it plus SHUTDOWN_TIMEOUT_MS (CONTRACT §6)", () => {
    const shutdownMs = Number(env.get("SHUTDOWN_TIMEOUT_MS"));
    expect(shutdownMs).toBeGreaterThan(0);
    const delayMs = Number(env.get("SHUTDOWN_DELAY_MS"));
    // Long enough for kube-proxy and ingress controllers to drop the endpoint (a few seconds).
    expect(delayMs).toBeGreaterThanOrEqual(3_000);
    const preStopMs = Number(at(container, "lifecycle.preStop.sleep.seconds") ?? 0) * 1000;
    expect(Number(podSpec.terminationGracePeriodSeconds) * 1000).toBeGreaterThan(
      preStopMs + delayMs + shutdownMs,
    );
  });

  test("Deployment: configuration through environment variables the service knows, as strings", () => {
    const config = readFileSync(join(ROOT, "src/config.ts"), "utf8");
    for (const [name, value] of env) {
      expect(typeof value).toBe("string"); // Kubernetes rejects numbers and booleans here
      expect(config).toContain(name);
    }
    const text = readFileSync(join(KUBE, "deployment.yaml"), "utf8");
    expect(text).toContain("TRUSTED_PROXIES"); // the note on running behind an ingress
  });

  test("Service selects the pods and targets the named container port", () => {
    expect(service.kind).toBe("Service");
    expect(matches(at(service, "spec.selector") as Record<string, string>)).toBe(true);
    const ports = at(service, "spec.ports") as { targetPort: string }[];
    const names = (container.ports as { name: string }[]).map((port) => port.name);
    for (const port of ports) expect(names).toContain(port.targetPort);
  });

  test("HorizontalPodAutoscaler (autoscaling/v2) scales the Deployment on CPU", () => {
    expect(hpa.apiVersion).toBe("autoscaling/v2");
    expect(hpa.kind).toBe("HorizontalPodAutoscaler");
    expect(at(hpa, "spec.scaleTargetRef")).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: at(deployment, "metadata.name"),
    });
    const metrics = at(hpa, "spec.metrics") as Yaml[];
    expect(metrics.some((metric) => at(metric, "resource.name") === "cpu")).toBe(true);
    expect(Number(at(hpa, "spec.minReplicas"))).toBeGreaterThanOrEqual(2);
    expect(Number(at(hpa, "spec.maxReplicas"))).toBeGreaterThan(Number(at(hpa, "spec.minReplicas")));
  });

  test("PodDisruptionBudget covers the pods without ever blocking a drain", () => {
    expect(pdb.apiVersion).toBe("policy/v1");
    expect(pdb.kind).toBe("PodDisruptionBudget");
    expect(matches(at(pdb, "spec.selector.matchLabels") as Record<string, string>)).toBe(true);
    expect(Number(at(pdb, "spec.minAvailable"))).toBeLessThan(Number(at(hpa, "spec.minReplicas")));
  });
});

/** A Kubernetes CPU quantity ("250m", "1", "0.5") in millicores. */
function millicores(quantity: unknown): number {
  const text = String(quantity);
  return text.endsWith("m") ? Number(text.slice(0, -1)) : Number(text) * 1000;
}

describe("Kubernetes manifests an SRE would sign", () => {
  const containerPorts = container.ports as { name: string; containerPort: number }[];
  const portNamed = (name: string) => containerPorts.find((port) => port.name === name)?.containerPort;

  test("NetworkPolicy: API only from the ingress controller, metrics only from monitoring, no egress", () => {
    expect(networkPolicy.apiVersion).toBe("networking.k8s.io/v1");
    expect(networkPolicy.kind).toBe("NetworkPolicy");
    expect(matches(at(networkPolicy, "spec.podSelector.matchLabels") as Record<string, string>)).toBe(true);
    expect(at(networkPolicy, "spec.policyTypes")).toEqual(["Ingress", "Egress"]);
    expect(at(networkPolicy, "spec.egress")).toEqual([]);
    const rules = at(networkPolicy, "spec.ingress") as Yaml[];
    const portsOf = (rule: Yaml) => (rule.ports as { port: string }[]).map((port) => port.port);
    expect(rules.flatMap(portsOf).sort()).toEqual(["http", "metrics"]);
    for (const name of rules.flatMap(portsOf)) expect(portNamed(name)).toBeDefined();
    const namespaceOf = (rule: Yaml) =>
      (at(rule, "from.0.namespaceSelector.matchLabels") as Record<string, string>)[
        "kubernetes.io/metadata.name"
      ];
    const httpRule = rules.find((rule) => (rule.ports as { port: string }[])[0]?.port === "http") as Yaml;
    const metricsRule = rules.find(
      (rule) => (rule.ports as { port: string }[])[0]?.port === "metrics",
    ) as Yaml;
    expect(namespaceOf(httpRule)).toBe("ingress-nginx");
    expect(namespaceOf(metricsRule)).toBe("monitoring");
  });

  test("Metrics: METRICS_PORT is the container's `metrics` port, annotated for scraping, apart from the API port", () => {
    expect(env.get("METRICS_PORT")).toBe("9464");
    expect(portNamed("metrics")).toBe(9464);
    expect(portNamed("http")).toBe(Number(env.get("PORT")));
    const annotations = at(deployment, "spec.template.metadata.annotations") as Record<string, string>;
    expect(annotations["prometheus.io/scrape"]).toBe("true");
    expect(annotations["prometheus.io/port"]).toBe(env.get("METRICS_PORT") as string);
    expect(annotations["prometheus.io/path"]).toBe("/metrics");
  });

  test("ServiceMonitor example scrapes the Service's `metrics` port, which targets the container's", () => {
    expect(serviceMonitor.apiVersion).toBe("monitoring.coreos.com/v1");
    expect(serviceMonitor.kind).toBe("ServiceMonitor");
    const serviceLabels = at(service, "metadata.labels") as Record<string, string>;
    const selector = at(serviceMonitor, "spec.selector.matchLabels") as Record<string, string>;
    for (const [key, value] of Object.entries(selector)) expect(serviceLabels[key]).toBe(value);
    const servicePorts = at(service, "spec.ports") as { name: string; targetPort: string }[];
    const endpoint = at(serviceMonitor, "spec.endpoints.0") as { port: string; path: string };
    expect(endpoint.path).toBe("/metrics");
    expect(servicePorts.find((port) => port.name === endpoint.port)?.targetPort).toBe("metrics");
  });

  test("Ingress example routes to the Service's `http` port; TRUSTED_PROXIES is the CIDR it names", () => {
    expect(ingress.apiVersion).toBe("networking.k8s.io/v1");
    expect(ingress.kind).toBe("Ingress");
    const backend = at(ingress, "spec.rules.0.http.paths.0.backend.service") as {
      name: string;
      port: { name: string };
    };
    expect(backend.name).toBe(at(service, "metadata.name") as string);
    expect(backend.port.name).toBe("http");
    const trusted = env.get("TRUSTED_PROXIES") as string;
    expect(trusted).toMatch(/^[0-9.]+\/[0-9]+$/);
    expect(readFileSync(join(KUBE, "examples/ingress.yaml"), "utf8")).toContain(trusted);
    expect(env.get("TRUSTED_PROXY_HEADER")).toBe("x-forwarded-for");
    expect(at(ingress, "spec.ingressClassName")).toBe("nginx");
  });

  test("the image is pinned by digest, with the release's tag in the comment above it", () => {
    const image = container.image as string;
    expect(image).toMatch(/^[a-z0-9.-]+\/[a-z0-9-]+@sha256:[0-9a-f]{64}$/);
    const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
      .version;
    const text = readFileSync(join(KUBE, "deployment.yaml"), "utf8");
    const lines = text.split("\n");
    const imageLine = lines.findIndex((line) => line.includes(`image: ${image}`));
    const comment = lines.slice(Math.max(0, imageLine - 4), imageLine).join("\n");
    expect(comment).toContain(`network-tools-api:${version}`);
  });

  test("the HPA's CPU target is the one docs/operations.md derives from the measured CPU per request", () => {
    const utilization = Number(at(hpa, "spec.metrics.0.resource.target.averageUtilization"));
    const request = millicores(at(container, "resources.requests.cpu"));
    const limit = millicores(at(container, "resources.limits.cpu"));
    const targetMillicores = (utilization * request) / 100;
    const docs = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
    const stated = /HPA target: (\d+)m CPU per pod/.exec(docs);
    expect(stated).not.toBeNull();
    expect(Number(stated?.[1])).toBe(targetMillicores);
    expect(targetMillicores).toBeLessThan(limit); // a pod scales out before it is throttled
    expect(docs).toContain(`averageUtilization: ${utilization}`);
  });

  test("the image export command in docs/operations.md names the store the CI step really uses", () => {
    const docs = readFileSync(join(ROOT, "docs/operations.md"), "utf8");
    const script = readFileSync(join(ROOT, "scripts/image-ci.sh"), "utf8");
    expect(script).toContain('--root "$CACHE/storage-$DRIVER"');
    expect(script).toContain("DRIVER=overlay");
    expect(docs).toContain("network-tools-api-image-ci/storage-overlay --storage-driver overlay");
    expect(docs).not.toMatch(/image-ci\/storage push/);
  });
});
