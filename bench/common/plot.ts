import { Resvg } from '@resvg/resvg-js';

/**
 * vega and vega-lite ship as ECMAScript modules only, and this CommonJS build would turn a plain
 * `import()` into `require()`: the Function keeps the real dynamic import.
 */
const importModule = new Function('specifier', 'return import(specifier)') as <T>(
  specifier: string,
) => Promise<T>;

/** One point of a line: x, the line's name, y. */
export interface PlotRow {
  x: number;
  series: string;
  value: number;
}

/** Long rows of one figure per point of `points`, a line per key of what `pick` returns (nulls left out). */
export function plotRows<T>(
  points: readonly T[],
  x: (point: T) => number,
  pick: (point: T) => Record<string, number | null>,
): PlotRow[] {
  return points.flatMap((point) =>
    Object.entries(pick(point)).flatMap(([series, value]) =>
      value === null ? [] : [{ x: x(point), series, value }],
    ),
  );
}

/** A vega-lite panel: one line per series. */
export function linePanel(title: string, xTitle: string, unit: string, values: PlotRow[]) {
  return {
    title,
    width: 420,
    height: 160,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: xTitle },
      y: { field: 'value', type: 'quantitative', title: unit },
      color: { field: 'series', type: 'nominal', title: null },
    },
  };
}

/** Panels two to a row, each with its own legend, rendered to PNG. */
export async function renderPanels(panels: readonly object[]): Promise<Buffer> {
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    background: 'white',
    columns: 2,
    concat: panels,
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
