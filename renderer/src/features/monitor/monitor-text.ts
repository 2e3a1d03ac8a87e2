import { DRIFT_THRESHOLDS, type AnswerKind } from '../../../../shared/monitor/drift';
import type { CaptureMonitor, LiveAccuracy } from '../../../../shared/schemas/capture';
import { integer, probability, UNKNOWN } from '../../ui/format';

export type MonitoredQuestion = CaptureMonitor['questions'][number];
type Figures = MonitoredQuestion['reference'] | MonitoredQuestion;

/** A window's answers in a line: each category's share, the largest first ("yes 42.0% · no 58.0%"); boxes by their mean area and centre. */
export function sharesText(q: Figures): string {
  if (!q || q.n === 0) return UNKNOWN;
  if (q.kind === 'box') return q.box ? `mean area ${probability(q.box.area)}, centre ${q.box.x.toFixed(2)}, ${q.box.y.toFixed(2)}` : UNKNOWN;
  return Object.entries(q.shares)
    .sort(([, a], [, b]) => b - a)
    .map(([c, share]) => `${c} ${probability(share)}`)
    .join(' · ');
}

/** How the drift is measured for each kind, said beside its figure. */
export const DRIFT_MEASURE: Record<AnswerKind, string> = { noul: 'yes-rate change', choice: 'PSI', score: 'PSI', box: 'move or resize' };

/** The drift's figure with its measure and the threshold it is held against ("0.650 yes-rate change (alert past 0.100)"). */
export function driftText(q: MonitoredQuestion): string {
  if (q.drift === null) return `${UNKNOWN} (a window has no answers)`;
  return `${q.drift.toFixed(3)} ${DRIFT_MEASURE[q.kind]} (alert past ${DRIFT_THRESHOLDS[q.kind].toFixed(2)})`;
}

/** Live accuracy with its interval and how many reviewed answers it rests on; a word when none was reviewed. */
export function accuracyText(a: LiveAccuracy | null): string {
  if (!a) return 'none reviewed yet';
  const interval = a.interval ? ` (95% interval ${probability(a.interval.low)}–${probability(a.interval.high)})` : '';
  return `${probability(a.accuracy)}${interval}, ${integer(a.correct)} of ${integer(a.reviewed)} reviewed`;
}

/** A share of the requests whose outcome was kept, or why there is none. */
export const shareText = (share: number | null): string => (share === null ? `${UNKNOWN} (not kept for these captures)` : probability(share));

/** Milliseconds as the endpoint views write latency. */
export const msText = (ms: number | null): string => (ms === null ? UNKNOWN : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`);
