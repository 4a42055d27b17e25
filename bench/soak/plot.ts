import { Resvg } from '@resvg/resvg-js';
import type { SoakMinute } from './soak-minute';

/**
 * vega and vega-lite ship as ECMAScript modules only, and this CommonJS build would turn a plain
 * `import()` into `require()`: the Function keeps the real dynamic import.
 */
const importModule = new Function('specifier', 'return import(specifier)') as <T>(
  specifier: string,
) => Promise<T>;

/** Long rows (minute, series, value) of one figure, for a line per series. */
function rows(minutes: readonly SoakMinute[], pick: (minute: SoakMinute) => Record<string, number | null>) {
  return minutes.flatMap((minute) =>
    Object.entries(pick(minute)).flatMap(([series, value]) =>
      value === null ? [] : [{ minute: minute.minute, series, value }],
    ),
  );
}

function panel(title: string, unit: string, values: { minute: number; series: string; value: number }[]) {
  return {
    title,
    width: 420,
    height: 160,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'minute', type: 'quantitative', title: 'minute' },
      y: { field: 'value', type: 'quantitative', title: unit },
      color: { field: 'series', type: 'nominal', title: null },
    },
  };
}

/** The soak's curves as one PNG: a leak or a slow drift shows as a rising line. */
export async function soakPlot(minutes: readonly SoakMinute[]): Promise<Buffer> {
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    columns: 2,
    concat: [
      panel(
        'Resident memory per process',
        'MB',
        rows(minutes, (minute) => minute.rssMb),
      ),
      panel(
        'Event-loop lag p99 per process',
        'ms',
        rows(minutes, (minute) => minute.eventLoopLagP99Ms),
      ),
      panel(
        'Consumer lag per service',
        'messages',
        rows(minutes, (minute) => minute.consumerLag),
      ),
      panel(
        'Latency p99',
        'ms',
        rows(minutes, (minute) => ({ 'batch POST': minute.batchP99Ms, 'edge read': minute.readP99Ms })),
      ),
      panel(
        'Throughput',
        'per second',
        rows(minutes, (minute) => ({
          positions: minute.positionsPerSecond,
          'alerts x100': minute.alertsPerSecond * 100,
          'webhooks x100': minute.webhooksPerSecond * 100,
        })),
      ),
    ],
    // Each panel its own legend.
    resolve: { scale: { color: 'independent' }, legend: { color: 'independent' } },
  };
  const vega = await importModule<{
    parse(spec: unknown): unknown;
    View: new (runtime: unknown, options: { renderer: 'none' }) => { toSVG(): Promise<string> };
  }>('vega');
  const { compile } = await importModule<{ compile(spec: unknown): { spec: unknown } }>('vega-lite');
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  return new Resvg(svg, { fitTo: { mode: 'width', value: 1100 } }).render().asPng();
}
