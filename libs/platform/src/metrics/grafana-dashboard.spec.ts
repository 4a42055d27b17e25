import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FleetMetrics } from './fleet-metrics';

const ROOT = join(__dirname, '../../../..');
const DASHBOARD = join(ROOT, 'k8s/base/grafana/fleet-dashboard.json');

interface Panel {
  type: string;
  title: string;
  targets?: { expr: string }[];
}

/** Every PromQL expression of the dashboard's panels, with its panel's title. */
function expressionsOf(dashboard: { panels: Panel[] }): { title: string; expr: string }[] {
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })),
  );
}

/**
 * Metric names an expression reads: identifiers right before a selector's `{` or a range's `[`, and
 * any identifier with a prefix of the exposed families (a bare `fleet_x` inside `sum(...)`).
 */
function metricNamesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const selected = [...withoutStrings.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g)].map(
    (match) => match[1],
  );
  const prefixed = withoutStrings.match(/\b(?:fleet|nodejs|process)_[a-zA-Z0-9_:]*/g) ?? [];
  return [...new Set([...selected, ...prefixed])];
}

/** The series names a registry exposes: each family's own, and a histogram's bucket, sum and count. */
async function exposedNames(metrics: FleetMetrics): Promise<Set<string>> {
  const names = new Set<string>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    names.add(metric.name);
    if (String(metric.type) === 'histogram') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${metric.name}${suffix}`);
    }
  }
  return names;
}

describe('k8s/base/grafana/fleet-dashboard.json', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: Panel[] };
  const expressions = expressionsOf(dashboard);

  it('is a dashboard with panels that query', () => {
    expect(dashboard.uid).toBe('fleet-overview');
    expect(expressions.length).toBeGreaterThan(10);
  });

  it('names only metrics the services expose', async () => {
    const known = await exposedNames(new FleetMetrics('test'));
    const unknown = expressions.flatMap(({ title, expr }) => {
      const names = metricNamesIn(expr);
      // An expression whose metric this check cannot see would escape it.
      if (names.length === 0) return [`${title}: no metric found in ${expr}`];
      return names.filter((name) => !known.has(name)).map((name) => `${title}: ${name}`);
    });
    expect(unknown).toEqual([]);
  });

  it('shows every fleet_ family', async () => {
    const shown = new Set(expressions.flatMap(({ expr }) => metricNamesIn(expr)));
    const families = (await new FleetMetrics('test').registry.getMetricsAsJSON())
      .map((metric) => metric.name)
      .filter((name) => name.startsWith('fleet_'));
    const missing = families.filter(
      (name) => !shown.has(name) && !['_bucket', '_count'].some((suffix) => shown.has(`${name}${suffix}`)),
    );
    expect(missing).toEqual([]);
  });

  it('the name check sees through functions, label matchers and quoted values (control case)', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le) (rate(made_up_seconds_bucket{route="/a{b}[c]", x=~"5.."}[5m])))',
      ),
    ).toEqual(['made_up_seconds_bucket']);
    expect(metricNamesIn('max by (service) (process_resident_memory_bytes{service=~"$service"})')).toEqual([
      'process_resident_memory_bytes',
    ]);
    expect(metricNamesIn('sum by (group) (fleet_made_up) > 10')).toEqual(['fleet_made_up']);
  });
});

describe('the suggested alert rules of docs/metrics.md', () => {
  it('name only metrics the services expose', async () => {
    const markdown = readFileSync(join(ROOT, 'docs/metrics.md'), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(markdown)?.[1] ?? '';
    const rules = (parse(yaml) as { groups: { rules: { alert: string; expr: string }[] }[] }).groups.flatMap(
      (group) => group.rules,
    );
    expect(rules.length).toBeGreaterThan(5);
    const known = await exposedNames(new FleetMetrics('test'));
    const unknown = rules.flatMap(({ alert, expr }) => {
      const names = metricNamesIn(expr);
      if (names.length === 0) return [`${alert}: no metric found in ${expr}`];
      return names.filter((name) => !known.has(name)).map((name) => `${alert}: ${name}`);
    });
    expect(unknown).toEqual([]);
  });
});
