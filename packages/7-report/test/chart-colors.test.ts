/**
 * One colour per run across all charts: a chart that has no data of some run still gives
 * every other run its own colour (Vega-Lite alone colours the runs a chart has, in sorted
 * order, so a run would change colour from chart to chart).
 */
import { describe, expect, it } from 'vitest';
import { boxPlots, groupedBars, histogram, renderChart, SERIES_COLORS } from '../src/charts.js';

const [first, second] = SERIES_COLORS;

describe('run colours', () => {
  it('a run keeps its colour in a chart without the runs before it', async () => {
    const onlyB = [{ series: 'run B', value: 0.5 }];
    for (const [id, spec] of [
      ['box', (order?: string[]) => boxPlots(onlyB, { xTitle: 's', ...(order ? { seriesOrder: order } : {}) })],
      ['hist', (order?: string[]) => histogram(onlyB, { title: 'f1', ...(order ? { seriesOrder: order } : {}) })],
      ['bars', (order?: string[]) => groupedBars([{ m: 'mean', series: 'run B', value: 0.5 }], { x: 'm', y: 'value', series: 'series', yTitle: 'f1', ...(order ? { seriesOrder: order } : {}) })],
    ] as const) {
      const count = (svg: string, color: string): number => svg.split(color).length - 1;
      // Vega-Lite's own colours: run B, alone in the chart, takes the first colour.
      const alone = await renderChart(id, id, spec());
      expect(count(alone.svg, first)).toBeGreaterThan(0);
      expect(count(alone.svg, second)).toBe(0);
      // In the runs' order, run B is the second colour; the first is at most run A's legend entry.
      const kept = await renderChart(id, id, spec(['run A', 'run B']));
      expect(count(kept.svg, second)).toBeGreaterThan(0);
      expect(count(kept.svg, first)).toBeLessThanOrEqual(id === 'box' ? 0 : 1);
    }
  });
});
