import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CaptureMonitorInput, CaptureRule, MonitorWindow } from '../../../../shared/schemas/capture';
import { useStored } from '../../lib/use-stored';
import { capturesQuery } from '../captures';
import { setsQuery } from '../question-sets';

/** What can be watched: each saved set a rule names (all its rules together), then each rule alone. */
export interface Subject {
  value: string;
  label: string;
  group: 'Question sets' | 'Capture rules';
  input: Pick<CaptureMonitorInput, 'rule_id' | 'question_set_id'>;
  /** the rules read, for the ways into Review and Evaluations */
  rules: CaptureRule[];
  /** the saved set whose questions the captures ask, when there is one */
  setId: string | null;
}

export function subjectsOf(rules: readonly CaptureRule[], setNames: ReadonlyMap<string, string>): Subject[] {
  const setIds = [...new Set(rules.flatMap((r) => (r.question_set_id ? [r.question_set_id] : [])))];
  const sets = setIds.map((id): Subject => {
    const ofSet = rules.filter((r) => r.question_set_id === id);
    return {
      value: `set:${id}`,
      label: `${setNames.get(id) ?? id} (${ofSet.length} rule${ofSet.length === 1 ? '' : 's'})`,
      group: 'Question sets',
      input: { question_set_id: id },
      rules: ofSet,
      setId: id,
    };
  });
  const single = rules.map((r): Subject => ({
    value: `rule:${r.id}`,
    label: r.name,
    group: 'Capture rules',
    input: { rule_id: r.id },
    rules: [r],
    setId: r.question_set_id,
  }));
  return [...sets, ...single];
}

/** The reference window: the week before the window, or dates the analyst picks (local date-times as the inputs give them). */
export type Reference = { kind: 'week-before' } | { kind: 'dates'; from: string; to: string };

/** Local date-time text ("2026-03-02T10:00") as an ISO instant; null when empty or not a time. */
const isoOf = (local: string): string | null => {
  const ms = Date.parse(local);
  return local === '' || Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

/** Why the picked reference cannot be asked for, or null. */
export function referenceProblem(r: Reference): string | null {
  if (r.kind === 'week-before') return null;
  const from = isoOf(r.from);
  const to = isoOf(r.to);
  if (!from || !to) return 'Give both the start and the end of the reference window.';
  return from < to ? null : 'The reference window must start before it ends.';
}

/** The subject, window and reference chosen, kept across visits, and the monitor request they make (null while the reference is incomplete). */
export function useMonitorSubject() {
  const rules = useQuery(capturesQuery());
  const sets = useQuery(setsQuery());
  const [stored, setSubject] = useStored<string | null>('verdict.monitor.subject', null);
  const [window, setWindow] = useStored<MonitorWindow>('verdict.monitor.window', '24h');
  const [reference, setReference] = useState<Reference>({ kind: 'week-before' });
  const subjects = subjectsOf(rules.data ?? [], new Map((sets.data ?? []).map((s) => [s.id, s.name])));
  const subject = subjects.find((s) => s.value === stored) ?? subjects[0] ?? null;
  const problem = referenceProblem(reference);
  const input: CaptureMonitorInput | null =
    subject && !problem
      ? {
          ...subject.input,
          window,
          ...(reference.kind === 'dates' ? { reference_from: isoOf(reference.from)!, reference_to: isoOf(reference.to)! } : {}),
        }
      : null;
  return { rules, subjects, subject, setSubject, window, setWindow, reference, setReference, problem, input };
}

export type MonitorChoice = ReturnType<typeof useMonitorSubject>;
