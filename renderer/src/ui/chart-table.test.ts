import { describe, expect, it } from 'vitest';
import { cellOf, tableOf } from './chart-table';

describe('a chart’s numbers as a table', () => {
  it('gives bars a row per category and a column per series, on either axis', () => {
    const option = {
      xAxis: { type: 'value', name: 's' },
      yAxis: { type: 'category', data: ['Alpha', 'Beta'] },
      series: [
        { name: 'p50', type: 'bar', data: [0.1234567, 0.5] },
        { name: 'p90', type: 'bar', data: [0.9, null] },
      ],
    };
    expect(tableOf(option)).toEqual({
      columns: ['', 'p50', 'p90'],
      rows: [
        ['Alpha', '0.1235', '0.9'],
        ['Beta', '0.5', '–'],
      ],
    });
  });

  it('gives points a row each, named by their series, with an interval as its range', () => {
    const option = {
      xAxis: { type: 'value', name: 'USD per 1,000 items' },
      yAxis: { type: 'value', name: 'accuracy' },
      series: [
        { name: '95% interval', type: 'custom', data: [[2, 0.61, 0.83]] },
        { name: 'acme/one', type: 'scatter', data: [[2, 0.72]] },
        { name: 'empty', type: 'scatter', data: [] },
      ],
    };
    expect(tableOf(option)).toEqual({
      columns: ['series', 'USD per 1,000 items', 'accuracy'],
      rows: [
        ['95% interval', '2', '0.61–0.83'],
        ['acme/one', '2', '0.72'],
      ],
    });
  });

  it('writes times as dates and leaves missing values as a dash', () => {
    expect(cellOf(Date.UTC(2026, 0, 2, 3, 4), { type: 'time' })).toBe(new Date(Date.UTC(2026, 0, 2, 3, 4)).toLocaleString());
    expect(cellOf(Number.NaN)).toBe('–');
    expect(cellOf(12345)).toBe('12,345');
  });
});
