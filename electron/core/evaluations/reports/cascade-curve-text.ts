import type { CascadeCurve } from '../../../../shared/schemas/cascade-curve';

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
const usd = (x: number) => `$${x.toPrecision(3)}`;
const ms = (x: number | null) => (x === null ? '-' : x.toFixed(0));

/** The curve as a plain table (`npm run eval --cascade`): one row per threshold, then each model alone. */
export function formatCurve(curve: CascadeCurve): string {
  const reads =
    curve.question === null
      ? `every ${curve.family === 'confidenceBelow' ? 'choice, score and box' : 'yes/no'} question (${curve.questions.join(', ') || 'none'})`
      : `"${curve.question}"`;
  const head = [
    `Cascade ${curve.first.model} → ${curve.second.model}: ${curve.family} on ${reads}; ${curve.metric} over ${curve.items} items both models answered`,
    ...(curve.excluded.total > 0
      ? [
          `${curve.excluded.total} items left out: ${curve.excluded.first_failed} without an answer of ${curve.first.model}, ${curve.excluded.second_failed} without one of ${curve.second.model}`,
        ]
      : []),
    ...(curve.cost_unknown > 0 ? [`${curve.cost_unknown} results of unknown cost counted as $0`] : []),
  ];
  const rows: string[][] = [['threshold', 'condition', 'accuracy', 'cost/item', 'escalated', 'mean ms', 'p50 ms']];
  for (const p of curve.points)
    rows.push([
      String(p.threshold),
      JSON.stringify(p.condition),
      pct(p.accuracy),
      usd(p.cost_per_item),
      pct(p.escalated),
      ms(p.latency_ms.mean),
      ms(p.latency_ms.p50),
    ]);
  for (const s of [curve.first, curve.second])
    rows.push([`${s.model} alone`, '', pct(s.accuracy), usd(s.cost_per_item), '', ms(s.latency_ms.mean), ms(s.latency_ms.p50)]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${head.join('\n')}\n${rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
