// What a reader sees of each chart of a rendered report page (for browser tests of every report):
// its kind and title, the title Vega drew, its axis titles, its legend's labels and its size.
import type { Page } from 'playwright-core';

export interface ChartInPage {
  kind: string;
  /** The title the report asked for (data-title). */
  title: string;
  /** The title drawn in the SVG. */
  titleText: string;
  axisTitles: string[];
  legendLabels: string[];
  area: number;
}

export function chartsInPage(page: Page): Promise<ChartInPage[]> {
  return page.$$eval('figure.chart', (figs) =>
    figs.map((f) => {
      const texts = (sel: string) => [...f.querySelectorAll(sel)].map((e) => e.textContent ?? '');
      const r = f.querySelector('svg')?.getBoundingClientRect();
      return {
        kind: f.getAttribute('data-chart') ?? '',
        title: f.getAttribute('data-title') ?? '',
        titleText: texts('.role-title-text text').join(' '),
        axisTitles: texts('.role-axis-title text'),
        legendLabels: texts('.role-legend-label text'),
        area: r ? r.width * r.height : 0,
      };
    }),
  );
}
