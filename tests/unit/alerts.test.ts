// docs/alerts.yml, the example alert rules: `promtool check rules` where Debian's prometheus
// package is installed (CI installs it), and everywhere the same checks promtool cannot make:
// every rule well formed, and every metric an expression names one Frontis exports.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

const FILE = fileURLToPath(new URL('../../docs/alerts.yml', import.meta.url));
const SOURCES = ['../../server/metrics/process.ts', '../../server/plugins/metrics.ts'].map((p) =>
  readFileSync(fileURLToPath(new URL(p, import.meta.url)), 'utf8'),
);

/** The metric names Frontis declares (a histogram's series too), and Prometheus's own `up`. */
const exported = new Set(['up']);
for (const source of SOURCES) {
  for (const [, name] of source.matchAll(/['"](frontis_[a-z_]+)['"]/g)) exported.add(name!);
}
for (const name of [...exported]) if (name.endsWith('_seconds')) for (const s of ['_bucket', '_count', '_sum']) exported.add(`${name}${s}`);

const FUNCTIONS = new Set(['sum', 'max', 'min', 'avg', 'rate', 'by', 'histogram_quantile', 'or', 'and', 'unless', 'le', 'without', 'increase']);

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const rules: Rule[] = (parse(readFileSync(FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }).groups.flatMap((g) => g.rules);

describe('docs/alerts.yml', () => {
  it('holds the alerts an operator needs, each with a severity and a summary', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      expect.arrayContaining([
        'FrontisAadeQueueStuck',
        'FrontisErrorRate',
        'FrontisInstanceDown',
        'FrontisReceiptsUnregistered',
        'FrontisRefusing',
        'FrontisReplicationLag',
        'FrontisSlowRequests',
        'FrontisStandbyMissing',
      ]),
    );
    for (const rule of rules) {
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.for ?? '1m', rule.alert).toMatch(/^\d+[smh]$/);
    }
  });

  it('names only metrics Frontis exports', () => {
    for (const rule of rules) {
      // Identifiers outside label matchers and strings.
      const bare = rule.expr
        .replace(/\{[^}]*\}/g, '')
        .replace(/"[^"]*"/g, '')
        .replace(/\[[^\]]*\]/g, '');
      const names = [...bare.matchAll(/[a-zA-Z_][a-zA-Z0-9_]*/g)].map((m) => m[0]).filter((n) => !FUNCTIONS.has(n) && !/^(instance|cause|job|state)$/.test(n));
      expect(names.length, rule.alert).toBeGreaterThan(0);
      for (const name of names) expect(exported.has(name), `${rule.alert}: ${name}`).toBe(true);
    }
  });

  it.runIf(commandExists('promtool'))('passes promtool check rules', () => {
    const out = execFileSync('promtool', ['check', 'rules', FILE], { encoding: 'utf8' });
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
  });
});

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
