// Charts for the reports as Vega-Lite specs rendered to SVG in Node (vega's headless View): every
// chart has a title, axis titles and a legend, and a series keeps its colour across the charts of
// one report (SeriesColors). Inline SVG, no scripts and no external assets, so a report stays one
// self-contained file.
import * as vega from 'vega';
import { type TopLevelSpec, compile } from 'vega-lite';
import { escapeXml } from './html.js';

/** Tableau 10, the colours the reports used before; assigned to series in order of first use. */
export const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** One colour per series name for a whole report: the same run or policy is the same colour in every chart. */
export class SeriesColors {
  private readonly assigned = new Map<string, string>();
  colour(name: string): string {
    let c = this.assigned.get(name);
    if (!c) {
      c = PALETTE[this.assigned.size % PALETTE.length]!;
      this.assigned.set(name, c);
    }
    return c;
  }
  /** A Vega-Lite colour scale for these names. */
  scale(names: readonly string[]): { domain: string[]; range: string[] } {
    const domain = [...new Set(names)];
    return { domain, range: domain.map((n) => this.colour(n)) };
  }
}

const WIDTH = 560;
const HEIGHT = 220;
const FONT = 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif';

/** Compiles and renders a Vega-Lite spec to an SVG string, wrapped in a figure the report's tests find. */
async function render(kind: string, title: string, spec: TopLevelSpec): Promise<string> {
  const full = {
    ...spec,
    config: {
      font: FONT,
      title: { fontSize: 14, anchor: 'start' },
      axis: { titleFontSize: 12, labelFontSize: 11 },
      legend: { titleFontSize: 12, labelFontSize: 11, labelLimit: 320 },
      view: { stroke: '#ddd' },
    },
  } as TopLevelSpec;
  const view = new vega.View(vega.parse(compile(full).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return `<figure class="chart" data-chart="${escapeXml(kind)}" data-title="${escapeXml(title)}">${svg.replace('<svg ', `<svg role="img" aria-label="${escapeXml(title)}" `)}</figure>`;
  } finally {
    view.finalize();
  }
}

export interface CiBar {
  label: string;
  value: number;
  ci: [number, number];
  /** Written above the bar, e.g. "7/10". */
  note?: string;
}

/** Bars in [0, 1] with 95% interval whiskers (success rate per task type or per policy). */
export async function barChartCI(title: string, bars: readonly CiBar[], o: { xTitle: string; yTitle?: string; legendTitle?: string; colors?: SeriesColors }): Promise<string> {
  const colors = o.colors ?? new SeriesColors();
  const values = bars.map((b) => ({ label: b.label, value: b.value, lo: b.ci[0], hi: b.ci[1], note: b.note ?? '' }));
  const x = { field: 'label', type: 'nominal' as const, title: o.xTitle, sort: null, axis: { labelAngle: -30, labelLimit: 160 } };
  const spec: TopLevelSpec = {
    title,
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: [
      {
        mark: { type: 'bar', tooltip: false },
        encoding: {
          x,
          y: { field: 'value', type: 'quantitative', title: o.yTitle ?? 'success rate', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
          color: { field: 'label', type: 'nominal', title: o.legendTitle ?? o.xTitle, scale: colors.scale(bars.map((b) => b.label)) },
        },
      },
      { mark: { type: 'rule', color: '#222' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
      { mark: { type: 'text', dy: -6, fontSize: 10, baseline: 'bottom' }, encoding: { x, y: { field: 'hi', type: 'quantitative' }, text: { field: 'note' } } },
    ],
  };
  return render('success', title, spec);
}

export interface Bin {
  label: string;
  count: number;
}

const fmt = (x: number) =>
  Number.isInteger(x) && Math.abs(x) < 1e9 ? x.toLocaleString('en-US') : Math.abs(x) >= 1e6 || (x !== 0 && Math.abs(x) < 0.01) ? x.toExponential(1) : Number(x.toFixed(2)).toString();

/** Bins for a set of numbers: one per distinct value when there are few, else `maxBins` equal ranges. */
export function histogramBins(values: readonly number[], maxBins = 12): Bin[] {
  if (values.length === 0) return [];
  const distinct = [...new Set(values)].sort((a, b) => a - b);
  if (distinct.length <= maxBins) return distinct.map((v) => ({ label: fmt(v), count: values.filter((x) => x === v).length }));
  const lo = distinct[0]!;
  const hi = distinct.at(-1)!;
  const width = (hi - lo) / maxBins;
  const bins = Array.from({ length: maxBins }, (_, i) => ({ label: `${fmt(lo + i * width)}–${fmt(lo + (i + 1) * width)}`, count: 0 }));
  for (const v of values) bins[Math.min(maxBins - 1, Math.floor((v - lo) / width))]!.count++;
  return bins;
}

/** Count bars of a distribution (scores, episode lengths); `series` names the population in the legend. */
export async function histogram(title: string, kind: string, bins: readonly Bin[], o: { xTitle: string; series: string; colors?: SeriesColors }): Promise<string> {
  const colors = o.colors ?? new SeriesColors();
  const spec: TopLevelSpec = {
    title,
    width: WIDTH / 2 - 20,
    height: HEIGHT,
    data: { values: bins.map((b) => ({ ...b, series: o.series })) },
    mark: { type: 'bar', tooltip: false },
    encoding: {
      x: { field: 'label', type: 'ordinal', title: o.xTitle, sort: null, axis: { labelAngle: -30 } },
      y: { field: 'count', type: 'quantitative', title: 'episodes', axis: { tickMinStep: 1 } },
      color: { field: 'series', type: 'nominal', title: 'episodes of', scale: colors.scale([o.series]) },
    },
  };
  return render(kind, title, spec);
}

export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
}

/** One line per series over a shared x axis (training metrics over steps). */
export async function lineChart(title: string, series: readonly Series[], o: { yTitle: string; xTitle?: string; legendTitle?: string; colors?: SeriesColors }): Promise<string> {
  const colors = o.colors ?? new SeriesColors();
  const values = series.flatMap((s) => s.points.map(([x, y]) => ({ x, y, series: s.name })));
  const spec: TopLevelSpec = {
    title,
    width: WIDTH / 2 - 20,
    height: HEIGHT * 0.8,
    data: { values },
    mark: { type: 'line', point: values.length <= series.length * 2, tooltip: false },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: o.xTitle ?? 'step' },
      y: { field: 'y', type: 'quantitative', title: o.yTitle, scale: { zero: false } },
      color: { field: 'series', type: 'nominal', title: o.legendTitle ?? 'run', scale: colors.scale(series.map((s) => s.name)) },
    },
  };
  return render('curve', title, spec);
}
