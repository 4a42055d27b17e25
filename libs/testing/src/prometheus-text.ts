/** One sample of a Prometheus text exposition: `name{labels} value`. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?/g;

function unescapeLabel(value: string): string {
  return value.replace(/\\(["\\n])/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/** The samples of a text exposition (version 0.0.4, what prom-client serves); comments skipped. */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = unescapeLabel(value);
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The families a text exposition declares (`# TYPE name type`). */
export function prometheusFamilies(text: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(name, type);
  return families;
}

/**
 * The sum of the samples named `name` whose labels include `labels` (0 when there are none): a
 * counter's value over the labels a test does not pin down.
 */
export function sampleSum(
  samples: readonly PrometheusSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  return samples
    .filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}
