/**
 * The operator's rules and dashboard (design.md §23, docs/operations.md "Alerts"): promtool accepts
 * and unit-tests deploy/prometheus/rules.yml, every alert is named, graded and has a runbook that
 * exists, every metric the rules and deploy/grafana/svc.json name is one a live Redis-backed
 * service exports, and that service's /metrics passes `promtool check metrics`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { scrapeReadings } from '../server/boot.ts';
import { openRedisStore } from '../server/store/redis.ts';
import { listenForMetrics, type MetricsListener } from '../server/telemetry/metrics-listener.ts';
import { createTelemetry } from '../server/telemetry/telemetry.ts';
import { makeTestApp, makeTestDeps, REPO_ROOT, type TestApp } from '../server/test/helpers.ts';
import { startRedisServer, type RedisServer } from '../server/test/redis-server.ts';
import { completeOnPhone, openOnPhone, startStandardFlow } from '../server/test/verify-flow.ts';
import { readAnchors } from './markdown.ts';

const PROMETHEUS = join(REPO_ROOT, 'deploy/prometheus');
const rulesText = readFileSync(join(PROMETHEUS, 'rules.yml'), 'utf8');
const dashboardText = readFileSync(join(REPO_ROOT, 'deploy/grafana/svc.json'), 'utf8');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (parse(rulesText) as { groups: { rules: Rule[] }[] }).groups.flatMap((group) => group.rules);
const alerts = rules.filter((rule) => rule.alert !== undefined);

function promtool(...args: string[]) {
  return spawnSync('promtool', args, { cwd: PROMETHEUS, encoding: 'utf8', timeout: 120_000 });
}

/** Metric names an expression reads: the service's and prom-client's; recording rules' names apart. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:svc|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

describe('deploy/prometheus/rules.yml', () => {
  it('passes promtool check rules', () => {
    const run = promtool('check', 'rules', 'rules.yml');
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it('passes its unit tests (promtool test rules), every alert among them', () => {
    const tests = readFileSync(join(PROMETHEUS, 'rules.test.yml'), 'utf8');
    for (const name of new Set(alerts.map((a) => a.alert!))) expect(tests).toContain(`alertname: ${name}\n`);
    const run = promtool('test', 'rules', 'rules.test.yml');
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('SUCCESS');
  });

  it('names every alert Svc… in CamelCase with a page or ticket severity, a summary and a runbook that exists', () => {
    const anchors = readAnchors(readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8'));
    expect(alerts.length).toBeGreaterThan(15);
    for (const alert of alerts) {
      expect(alert.alert).toMatch(/^Svc(?:[A-Z0-9][a-z0-9]*)+$/);
      expect(['page', 'ticket']).toContain(alert.labels?.severity);
      expect(alert.annotations?.summary, alert.alert).toBeTruthy();
      const runbook = /^docs\/operations\.md#(.+)$/.exec(alert.annotations?.runbook ?? '');
      expect(runbook, alert.alert).not.toBeNull();
      expect(anchors, `${alert.alert}: ${alert.annotations!.runbook}`).toContain(runbook![1]);
    }
  });
});

describe('the metrics the rules and the dashboard read', () => {
  let redis: RedisServer;
  let t: TestApp;
  let listener: MetricsListener;
  let scrape: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    const store = await openRedisStore({ url: redis.url, prefix: 'rules-test:' });
    const { deps } = await makeTestDeps({ store, env: { SVC_REDIS_URL: redis.url } });
    const telemetry = await createTelemetry({
      metrics: { processMetrics: true, longPollWaiters: () => 0, readings: scrapeReadings(deps) },
    });
    t = await makeTestApp({ deps: { ...deps, telemetry } });
    listener = await listenForMetrics(telemetry.metrics!.registry, { port: 0, host: '127.0.0.1' });
    // One verification through, so the labelled series exist too.
    const flow = await startStandardFlow(t);
    await openOnPhone(t, flow);
    await completeOnPhone(t, flow);
    scrape = await (await fetch(listener.url)).text();
  }, 60_000);
  afterAll(async () => {
    await listener?.close();
    await t?.close();
    redis?.remove();
  });

  it('exports the operator gauges: store up, Redis replicas against the minimum, the current signing keys', () => {
    expect(scrape).toMatch(/^svc_store_up 1$/m);
    expect(scrape).toMatch(/^svc_redis_replicas_online 0$/m);
    expect(scrape).toMatch(/^svc_redis_min_replicas 0$/m);
    expect(scrape).toMatch(/^svc_signing_key_created_timestamp_seconds\{purpose="attestation"\} \d+(\.\d+)?$/m);
    expect(scrape).toMatch(/^svc_signing_key_created_timestamp_seconds\{purpose="session"\} \d+(\.\d+)?$/m);
  });

  it('names only metrics /metrics exports, in the rules and in every dashboard query', () => {
    const exported = new Set<string>();
    for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name!);
      if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) exported.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_count', '_sum']) exported.add(name + suffix);
    }
    const recorded = new Set(rules.flatMap((rule) => (rule.record ? [rule.record] : [])));
    const dashboard = JSON.parse(dashboardText) as { panels: { title: string; targets: { expr: string }[] }[] };
    const queries = [
      ...rules.map((rule) => ({ where: rule.alert ?? rule.record!, expr: rule.expr })),
      ...dashboard.panels.flatMap((panel) =>
        panel.targets.map((target) => ({ where: panel.title, expr: target.expr })),
      ),
    ];
    expect(dashboard.panels.length).toBeGreaterThan(10);
    const unknown = queries.flatMap(({ where, expr }) =>
      metricNames(expr)
        .filter((name) => !exported.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
    const unrecorded = queries.flatMap(({ where, expr }) =>
      [...expr.matchAll(/\b(svc:[a-z0-9_:]+)/g)].filter((m) => !recorded.has(m[1]!)).map((m) => `${where}: ${m[1]}`),
    );
    expect(unrecorded).toEqual([]);
  });

  it('passes promtool check metrics, with none of the nodejs_active_*_total gauges it refuses', () => {
    expect(scrape).not.toMatch(/^nodejs_active_\w+_total/m);
    const run = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });
});

/** promtool is Debian's `prometheus` package (.ci/run installs it). */
execFileSync('promtool', ['--version'], { stdio: 'ignore' });
