// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AnswerView } from './AnswerView';

afterEach(cleanup);

describe('AnswerView', () => {
  it('shows a noul answer as a gauge with its probability', () => {
    render(<AnswerView name="late" answer={{ type: 'noul', noul: 0.8125 }} method="logprobs" />);
    const gauge = screen.getByRole('meter', { name: 'P(true) for late' });
    expect(gauge.getAttribute('aria-valuenow')).toBe('0.8125');
    expect(gauge.textContent).toContain('81.3%');
    expect(screen.getByRole('region', { name: 'Answer late' }).textContent).toContain('measured by token probabilities');
  });

  it('shows choice probabilities as bars and marks the chosen option', () => {
    render(<AnswerView name="topic" answer={{ type: 'choice', choice: 'billing', confidence: 0.7, probabilities: { delivery: 0.3, billing: 0.7 } }} />);
    const region = screen.getByRole('region', { name: 'Answer topic' });
    const rows = region.querySelectorAll('.bar-row');
    expect([...rows].map((r) => r.textContent)).toEqual(['delivery30.0%', 'billing (chosen)70.0%']);
    expect(region.querySelector('.bar-row.chosen')?.textContent).toContain('billing');
    expect(within(region).getByText('Confidence 70.0%')).toBeTruthy();
  });

  it('shows a score as the expected level with each level, its legend and probability', () => {
    render(
      <AnswerView
        name="severity"
        answer={{ type: 'score', score: 1.3, probabilities: { '0': 0.2, '1': 0.3, '2': 0.5 }, legend: { '0': 'none', '1': 'minor', '2': { level: 'major' } } }}
      />,
    );
    const region = screen.getByRole('region', { name: 'Answer severity' });
    expect(region.textContent).toContain('Expected level 1.30 of 2');
    expect([...region.querySelectorAll('.bar-label')].map((l) => l.textContent)).toEqual(['0 · none', '1 · minor', '2 · {"level":"major"}']);
  });

  it('draws a box over its image at the answer fractions', () => {
    render(<AnswerView name="card" answer={{ type: 'box', box: { top: 0.1, left: 0.2, bottom: 0.5, right: 0.8 } }} image="data:image/png;base64,AAAA" />);
    const rect = document.querySelector('rect.answer-box')!;
    const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((a) => Number(rect.getAttribute(a)));
    expect(x).toBeCloseTo(20, 9);
    expect(y).toBeCloseTo(10, 9);
    expect(width).toBeCloseTo(60, 9);
    expect(height).toBeCloseTo(40, 9);
    expect(screen.getByRole('img', { name: 'Image with the box for card' })).toBeTruthy();
  });
});
