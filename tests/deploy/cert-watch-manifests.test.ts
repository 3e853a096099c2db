/**
 * The certificate watch's Kubernetes example and alert rules (CONTRACT §10.1), checked by parsing
 * and by Prometheus's own rule checker: the example mounts a Secret read-only and names the mount
 * in CERT_WATCH with METRICS_PORT (the configuration loader accepts its environment), in one
 * replica; the PrometheusRule's spec is a valid rule file whose expressions read series the
 * watcher exports. (A real Prometheus evaluates the same rules in
 * tests/e2e/cert-watch-prometheus.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { renderCertificateExposition } from "../../src/certificate-watch/exposition.ts";
import { loadConfig } from "../../src/config.ts";

const EXAMPLES = join(resolve(import.meta.dir, "../.."), "deploy/kubernetes/examples");
type Yaml = Record<string, unknown>;
const parse = (name: string) => Bun.YAML.parse(readFileSync(join(EXAMPLES, name), "utf8")) as Yaml;

describe("examples/cert-watch.yaml", () => {
  const deployment = parse("cert-watch.yaml");
  const spec = deployment.spec as { replicas: number; template: { spec: Yaml } };
  const pod = spec.template.spec as {
    containers: {
      env: { name: string; value: string }[];
      volumeMounts: { name: string; mountPath: string; readOnly: boolean }[];
    }[];
    volumes: { name: string; secret?: { secretName: string } }[];
  };
  const container = pod.containers[0]!;
  const env = Object.fromEntries(container.env.map((entry) => [entry.name, entry.value]));

  test("one replica mounting a Secret read-only, named in CERT_WATCH, with METRICS_PORT", () => {
    expect(deployment.kind).toBe("Deployment");
    expect(spec.replicas).toBe(1);
    const config = loadConfig(env, 1);
    expect(config.metricsPort).toBe(9464);
    expect(config.workers).toBe(1);
    const mounts = container.volumeMounts;
    expect(config.certWatch?.paths).toEqual(mounts.map((mount) => mount.mountPath));
    for (const mount of mounts) {
      expect(mount.readOnly).toBe(true);
      expect(pod.volumes.find((volume) => volume.name === mount.name)?.secret?.secretName).toBeString();
    }
  });
});

describe("examples/cert-watch-alerts.yaml", () => {
  const rule = parse("cert-watch-alerts.yaml");
  const groups = (rule.spec as { groups: { rules: { alert: string; expr: string }[] }[] }).groups;
  const rules = groups.flatMap((group) => group.rules);

  test("a PrometheusRule of its own whose spec promtool accepts", () => {
    expect(rule.kind).toBe("PrometheusRule");
    expect(rule.apiVersion).toBe("monitoring.coreos.com/v1");
    const dir = mkdtempSync(join(tmpdir(), "cert-watch-rules-"));
    writeFileSync(join(dir, "rules.yml"), JSON.stringify(rule.spec));
    const check = Bun.spawnSync(["promtool", "check", "rules", join(dir, "rules.yml")]);
    rmSync(dir, { recursive: true });
    expect(`${check.stdout.toString()}${check.stderr.toString()}`).toContain(
      `SUCCESS: ${rules.length} rules found`,
    );
    expect(check.exitCode).toBe(0);
  });

  test("alerts for a chain not complete, an error problem, expiry under the threshold, read errors; on exported series", () => {
    expect(rules.map((entry) => entry.alert)).toEqual([
      "CertificateChainNotComplete",
      "CertificateChainError",
      "CertificateExpiring",
      "CertificateFileReadErrors",
    ]);
    const exported = renderCertificateExposition([], new Map(), 0);
    for (const entry of rules) {
      const names = entry.expr.match(/\b(?:x509|network_tools)_[a-z_]+/g) ?? [];
      expect(names.length).toBeGreaterThan(0);
      for (const name of names)
        expect(`${entry.alert}: ${exported.includes(`# TYPE ${name} `)}`).toBe(`${entry.alert}: true`);
    }
  });
});
