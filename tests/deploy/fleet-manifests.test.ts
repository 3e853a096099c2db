/**
 * Every Kubernetes manifest, validated offline (CONTRACT §11): the core kinds against the
 * Kubernetes OpenAPI schemas (`kubernetes-models`), HTTPRoute against the Gateway API's CRD schema
 * (`@kubernetes-models/gateway-api`), PrometheusRule and ServiceMonitor against the Prometheus
 * Operator's (`@kubernetes-models/prometheus-operator`), Envoy Gateway's BackendTrafficPolicy
 * against the fields this project uses (no schema package carries it; written here from its API
 * reference). The alert rules are checked by Prometheus's own `promtool check rules`, and the fleet
 * facts (zone spreading, GeoIP sharing, the global limit) are read from the files.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { HTTPRoute } from "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute";
import { PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import Ajv from "ajv";
import { Deployment } from "kubernetes-models/apps/v1/Deployment";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1/Ingress";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1/NetworkPolicy";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1/PodDisruptionBudget";
import { Service } from "kubernetes-models/v1/Service";

const KUBE = resolve(import.meta.dir, "../../deploy/kubernetes");
type Manifest = Record<string, unknown> & { apiVersion: string; kind: string };

/** Every manifest file, with its one document. */
function manifests(): [string, Manifest][] {
  const files = [
    ...readdirSync(KUBE).filter((name) => name.endsWith(".yaml")),
    ...readdirSync(join(KUBE, "examples"))
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => `examples/${name}`),
  ];
  return files.map((file) => [file, Bun.YAML.parse(readFileSync(join(KUBE, file), "utf8")) as Manifest]);
}

/** Envoy Gateway's BackendTrafficPolicy, the part this project uses (global rate limit by client address). */
const backendTrafficPolicySchema = {
  type: "object",
  required: ["apiVersion", "kind", "metadata", "spec"],
  properties: {
    apiVersion: { const: "gateway.envoyproxy.io/v1alpha1" },
    kind: { const: "BackendTrafficPolicy" },
    metadata: { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1 } } },
    spec: {
      type: "object",
      additionalProperties: false,
      required: ["targetRefs", "rateLimit"],
      properties: {
        targetRefs: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            additionalProperties: false,
            required: ["group", "kind", "name"],
            properties: {
              group: { const: "gateway.networking.k8s.io" },
              kind: { enum: ["Gateway", "HTTPRoute", "GRPCRoute"] },
              name: { type: "string", minLength: 1 },
              sectionName: { type: "string" },
            },
          },
        },
        rateLimit: {
          type: "object",
          additionalProperties: false,
          required: ["type", "global"],
          properties: {
            type: { const: "Global" },
            global: {
              type: "object",
              additionalProperties: false,
              required: ["rules"],
              properties: {
                rules: {
                  type: "array",
                  minItems: 1,
                  items: {
                    type: "object",
                    additionalProperties: false,
                    required: ["limit"],
                    properties: {
                      clientSelectors: {
                        type: "array",
                        items: {
                          type: "object",
                          additionalProperties: false,
                          properties: {
                            sourceCIDR: {
                              type: "object",
                              additionalProperties: false,
                              required: ["type", "value"],
                              properties: {
                                type: { enum: ["Exact", "Distinct"] },
                                value: { type: "string" },
                              },
                            },
                          },
                        },
                      },
                      limit: {
                        type: "object",
                        additionalProperties: false,
                        required: ["requests", "unit"],
                        properties: {
                          requests: { type: "integer", minimum: 1 },
                          unit: { enum: ["Second", "Minute", "Hour", "Day", "Month", "Year"] },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

/** How each kind is validated: a model's `validate()` (it throws on a schema violation). */
const VALIDATORS: Record<string, (document: Manifest) => void> = {
  "apps/v1 Deployment": (document) => new Deployment(document as never).validate(),
  "autoscaling/v2 HorizontalPodAutoscaler": (document) =>
    new HorizontalPodAutoscaler(document as never).validate(),
  "networking.k8s.io/v1 NetworkPolicy": (document) => new NetworkPolicy(document as never).validate(),
  "networking.k8s.io/v1 Ingress": (document) => new Ingress(document as never).validate(),
  "policy/v1 PodDisruptionBudget": (document) => new PodDisruptionBudget(document as never).validate(),
  "v1 Service": (document) => new Service(document as never).validate(),
  "gateway.networking.k8s.io/v1 HTTPRoute": (document) => new HTTPRoute(document as never).validate(),
  "monitoring.coreos.com/v1 PrometheusRule": (document) => new PrometheusRule(document as never).validate(),
  "monitoring.coreos.com/v1 ServiceMonitor": (document) => new ServiceMonitor(document as never).validate(),
  "gateway.envoyproxy.io/v1alpha1 BackendTrafficPolicy": (() => {
    const check = new Ajv({ allErrors: true }).compile(backendTrafficPolicySchema);
    return (document: Manifest) => {
      if (!check(document)) throw new Error(JSON.stringify(check.errors));
    };
  })(),
};

describe("every manifest validates offline against its schema", () => {
  for (const [file, document] of manifests()) {
    test(file, () => {
      const validate = VALIDATORS[`${document.apiVersion} ${document.kind}`];
      expect(validate).toBeDefined();
      validate?.(document);
    });
  }

  test("the validators refuse what breaks their schema (the check is not vacuous)", () => {
    const deployment = Bun.YAML.parse(readFileSync(join(KUBE, "deployment.yaml"), "utf8")) as Manifest;
    const broken = structuredClone(deployment) as { spec: { replicas: unknown } } & Manifest;
    broken.spec.replicas = "two";
    expect(() => VALIDATORS["apps/v1 Deployment"]?.(broken)).toThrow();
    const policy = Bun.YAML.parse(
      readFileSync(join(KUBE, "examples/gateway-rate-limit.yaml"), "utf8"),
    ) as Manifest & { spec: { rateLimit: { type: string } } };
    policy.spec.rateLimit.type = "Local";
    expect(() => VALIDATORS["gateway.envoyproxy.io/v1alpha1 BackendTrafficPolicy"]?.(policy)).toThrow();
    const route = Bun.YAML.parse(
      readFileSync(join(KUBE, "examples/gateway-httproute.yaml"), "utf8"),
    ) as Manifest & {
      spec: { rules: { backendRefs: { port: unknown }[] }[] };
    };
    const backend = route.spec.rules[0]?.backendRefs[0];
    if (backend) backend.port = 700_000;
    expect(() => VALIDATORS["gateway.networking.k8s.io/v1 HTTPRoute"]?.(route)).toThrow();
  });
});

describe("the alert rules", () => {
  const rule = Bun.YAML.parse(readFileSync(join(KUBE, "examples/prometheusrule.yaml"), "utf8")) as {
    spec: { groups: { rules: { alert: string; expr: string }[] }[] };
  };

  test("promtool check rules accepts them", () => {
    const dir = mkdtempSync(join(tmpdir(), "rules-"));
    try {
      const file = join(dir, "rules.yml");
      writeFileSync(file, JSON.stringify({ groups: rule.spec.groups }));
      const checked = Bun.spawnSync(["promtool", "check", "rules", file]);
      expect({
        code: checked.exitCode,
        out: checked.stdout.toString() + checked.stderr.toString(),
      }).toMatchObject({
        code: 0,
      });
      // … and refuses a broken expression (the check is not vacuous).
      const broken = structuredClone(rule.spec.groups);
      const first = broken[0]?.rules[0];
      if (first) first.expr = "sum(rate(network_tools_overloaded_total[5m]";
      writeFileSync(file, JSON.stringify({ groups: broken }));
      expect(Bun.spawnSync(["promtool", "check", "rules", file]).exitCode).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the service's alerts are there, each summed over the pods (no per-pod series left)", () => {
    const rules = rule.spec.groups.flatMap((group) => group.rules);
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        "NetworkToolsOverloaded",
        "NetworkToolsServerErrors",
        "NetworkToolsSlowOperation",
        "NetworkToolsGeoipStale",
      ]),
    );
    for (const { alert, expr } of rules) {
      expect({ alert, aggregated: /\b(sum|min|max)\b/.test(expr) }).toEqual({ alert, aggregated: true });
      expect({ alert, perPod: /\bby \([^)]*\b(pod|instance)\b/.test(expr) }).toEqual({
        alert,
        perPod: false,
      });
    }
    const metrics = readFileSync(resolve(import.meta.dir, "../../src/process/metrics.ts"), "utf8");
    for (const name of rules.flatMap(({ expr }) => expr.match(/network_tools_[a-z_]+/g) ?? [])) {
      const family = name.replace(/_(bucket|sum|count)$/, "");
      expect({ name, exported: metrics.includes(`"${family}`) }).toEqual({ name, exported: true });
    }
  });
});

describe("fleet facts in the manifests", () => {
  const deployment = Bun.YAML.parse(readFileSync(join(KUBE, "deployment.yaml"), "utf8")) as {
    spec: { template: { spec: { topologySpreadConstraints: { topologyKey: string }[] } } };
  };

  test("pods spread over zones as well as hosts", () => {
    expect(deployment.spec.template.spec.topologySpreadConstraints.map((c) => c.topologyKey)).toEqual([
      "topology.kubernetes.io/zone",
      "kubernetes.io/hostname",
    ]);
  });

  test("GeoIP: an init container and a geoipupdate sidecar share an emptyDir with the API, which checks the files at an interval", () => {
    const geoip = Bun.YAML.parse(readFileSync(join(KUBE, "examples/geoip.yaml"), "utf8")) as {
      spec: {
        template: {
          spec: {
            volumes: { name: string; emptyDir?: object }[];
            initContainers: {
              name: string;
              image: string;
              restartPolicy?: string;
              volumeMounts: { name: string; mountPath: string }[];
            }[];
            containers: {
              name: string;
              env: { name: string; value: string }[];
              volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
            }[];
          };
        };
      };
    };
    const pod = geoip.spec.template.spec;
    expect(pod.volumes).toEqual([{ name: "geoip", emptyDir: { sizeLimit: "256Mi" } }]);
    expect(pod.initContainers.map((c) => [c.image.split(":")[0], c.restartPolicy ?? null])).toEqual([
      ["ghcr.io/maxmind/geoipupdate", null],
      ["ghcr.io/maxmind/geoipupdate", "Always"],
    ]);
    const api = pod.containers[0];
    const env = Object.fromEntries((api?.env ?? []).map((e) => [e.name, e.value]));
    const interval = Number(env.GEOIP_RELOAD_INTERVAL_SECONDS);
    expect(interval).toBeGreaterThanOrEqual(10);
    expect(interval).toBeLessThanOrEqual(86_400);
    const dir = api?.volumeMounts[0]?.mountPath ?? "";
    expect(api?.volumeMounts[0]).toEqual({ name: "geoip", mountPath: dir, readOnly: true });
    for (const c of pod.initContainers) expect(c.volumeMounts).toEqual([{ name: "geoip", mountPath: dir }]);
    expect(env.GEOIP_ASN_DB?.startsWith(`${dir}/`)).toBe(true);
    expect(env.GEOIP_COUNTRY_DB?.startsWith(`${dir}/`)).toBe(true);
  });

  test("the recommended limit is Envoy Gateway's global one, on the API's route; ingress-nginx is marked legacy, per replica", () => {
    const policy = Bun.YAML.parse(readFileSync(join(KUBE, "examples/gateway-rate-limit.yaml"), "utf8")) as {
      spec: { targetRefs: { group: string; kind: string; name: string }[]; rateLimit: { type: string } };
    };
    const route = Bun.YAML.parse(readFileSync(join(KUBE, "examples/gateway-httproute.yaml"), "utf8")) as {
      metadata: { name: string };
    };
    expect(policy.spec.rateLimit.type).toBe("Global");
    expect(policy.spec.targetRefs).toEqual([
      { group: "gateway.networking.k8s.io", kind: "HTTPRoute", name: route.metadata.name },
    ]);
    const ingress = readFileSync(join(KUBE, "examples/ingress.yaml"), "utf8");
    expect(ingress.split("\n")[0]).toContain("LEGACY");
    expect(ingress).toContain("per controller replica");
  });
});
