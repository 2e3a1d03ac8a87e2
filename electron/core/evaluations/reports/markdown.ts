/**
 * The run as a Markdown summary (GitHub-flavoured): a headline with the outcome, the thresholds
 * judged, the metrics per model and question with the baseline's differences, and the answers that
 * changed against the baseline. Kept under a size in characters (GitHub takes up to 65,536 in a
 * pull request comment and 1 MiB in a step summary): rows that would pass it are left out, and the
 * summary says how many. Every figure is in the JSON report. Pure.
 */
import type { Interval } from '../../../../shared/metrics/binary';
import type { CiReport } from './ci-report';
import type { GateResult } from './gates';

/** Under GitHub's 65,536-character limit for a comment, with room for a heading of one's own. */
export const SUMMARY_LIMIT = 60_000;

const cell = (s: string) =>
  s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/</g, '&lt;');
/** Three decimals with a true minus sign (as the screen writes them); a value that rounds to 0 has no sign. */
const v3 = (v: number | null | undefined) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return '—';
  const text = Math.abs(v).toFixed(3);
  return v < 0 && text !== '0.000' ? `−${text}` : text;
};
const iv = (i: Interval | null | undefined) => (i ? `[${v3(i.low)}, ${v3(i.high)}]` : '—');
const signed = (v: number | null | undefined) => (typeof v === 'number' && v > 0 && v.toFixed(3) !== '0.000' ? `+${v3(v)}` : v3(v));
const row = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
const STATUS: Record<GateResult['status'], string> = { pass: '✅ met', fail: '❌ not met', insufficient: '⚠️ insufficient data' };

function headline(r: CiReport): string[] {
  const unmet = r.gates.filter((g) => g.status === 'fail').length;
  const insufficient = r.gates.filter((g) => g.status === 'insufficient').length;
  const items = `${r.dataset.items} items × ${r.models.length} ${r.models.length === 1 ? 'model' : 'models'}`;
  const [alert, text] =
    r.outcome === 'incomplete'
      ? ['CAUTION', `the run did not complete (${r.run.status}${r.run.message ? `: ${r.run.message}` : ''})`]
      : r.outcome === 'fail'
        ? [
            'CAUTION',
            `${unmet + (r.allow_insufficient ? 0 : insufficient)} of ${r.gates.length} thresholds not met${insufficient && !r.allow_insufficient ? ` (${insufficient} for insufficient data)` : ''}`,
          ]
        : insufficient
          ? ['WARNING', `every threshold met or allowed; ${insufficient} with insufficient data`]
          : ['NOTE', r.gates.length ? `all ${r.gates.length} thresholds met` : 'completed; no thresholds were set'];
  return [`> [!${alert}]`, `> **Verdict eval: ${cell(text)}** · ${cell(r.run.name)} · ${items} · yes/no at P(true) ≥ ${r.threshold.toFixed(2)}`, ''];
}

function gateTable(r: CiReport): string[] {
  if (r.gates.length === 0) return [];
  return [
    '### Thresholds',
    '',
    `Judged on the 95% interval's ${r.gate_on === 'bound' ? 'conservative end' : 'value itself (--gate-on point)'}; fewer than ${r.min_items} items is insufficient data.`,
    '',
    row(['result', 'model', 'threshold', 'value', '95% interval', 'compared', 'n']),
    row(['---', '---', '---', '---:', '---', '---', '---:']),
    ...r.gates.map((g) =>
      row([
        STATUS[g.status],
        g.model,
        g.name,
        g.kind === 'regression' ? signed(g.value) : v3(g.value),
        iv(g.interval),
        g.compared === null ? '—' : `${g.bound} ${v3(g.compared)}`,
        String(g.n),
      ]),
    ),
  ];
}

function metricTable(r: CiReport): string[] {
  const delta = (model: string, question: string, metric: string) =>
    r.baseline?.pairs.find((p) => p.model === model)?.questions[question]?.metrics.find((m) => m.metric === metric);
  const lines = [
    '### Metrics',
    '',
    row(['model', 'question', 'metric', 'value', '95% interval', 'n', ...(r.baseline ? ['Δ baseline', 'Δ 95% interval'] : [])]),
    row(['---', '---', '---', '---:', '---', '---:', ...(r.baseline ? ['---:', '---'] : [])]),
  ];
  for (const m of r.models) {
    for (const [question, q] of Object.entries(m.questions))
      for (const x of q.metrics) {
        const d = delta(m.model, question, x.metric);
        lines.push(row([m.model, question, x.metric, v3(x.value), iv(x.interval), String(x.n), ...(r.baseline ? [signed(d?.delta), iv(d?.interval)] : [])]));
      }
    for (const x of m.metrics)
      lines.push(
        row([
          m.model,
          '(model)',
          x.metric,
          x.value === null ? '—' : x.metric === 'cost_per_item' ? `$${x.value.toPrecision(3)}` : `${Math.round(x.value)} ms`,
          '—',
          String(x.n),
          ...(r.baseline ? ['', ''] : []),
        ]),
      );
  }
  return lines;
}

function changedTable(r: CiReport): string[] {
  const b = r.baseline;
  if (!b) return [];
  const c = b.changed_counts;
  const counts = c ? `${c.worse} worse, ${c.better} better, ${c.changed} changed with neither right` : `${b.changed_total} changed`;
  const said = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return [
    `### Changed answers against the baseline "${cell(b.name)}"`,
    '',
    `${counts}${b.changed.length < b.changed_total ? ` (the report lists the first ${b.changed.length})` : ''}.${b.notes.length ? ` ${cell(b.notes.join(' '))}` : ''}`,
    '',
    row(['change', 'item', 'question', 'model', 'expected', 'baseline', 'now']),
    row(['---', '---', '---', '---', '---', '---', '---']),
    ...b.changed.map((x) =>
      row([x.change === 'changed' ? 'neither right' : x.change, x.id, x.question, x.model, said(x.expected), x.baseline_answer, x.run_answer]),
    ),
  ];
}

/** The summary, at most `limit` characters: whole lines are left out from where the limit would be passed, and counted. */
export function markdownSummary(r: CiReport, limit = SUMMARY_LIMIT): string {
  const lines = [...headline(r), ...gateTable(r), '', ...metricTable(r), '', ...changedTable(r)];
  const marker = `<!-- verdict-eval ${r.run.id} -->`;
  let out = `${marker}\n`;
  for (let i = 0; i < lines.length; i += 1) {
    const note = `\n_${lines.length - i} more lines left out to keep this summary under ${limit.toLocaleString('en-US')} characters; every figure is in the JSON report (--report or --format json)._\n`;
    if (out.length + lines[i]!.length + 1 + note.length > limit) return out + note;
    out += `${lines[i]}\n`;
  }
  return out;
}
