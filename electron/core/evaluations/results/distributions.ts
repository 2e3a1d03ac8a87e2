/** What the charts draw beyond the report: pure, from a run's stored results and its items' expected answers. */
import { iou, type Edges } from '../../../../shared/geometry/iou';
import type { Question } from '../../../../shared/schemas/question';
import type { StoredEvalResult } from './storage';

export interface Distribution {
  question: string;
  type: 'score' | 'box';
  model: string;
  buckets: { at: number; count: number }[];
}

/**
 * Per score question and model, how often each signed error (score − expected, to the nearest 0.5)
 * occurs; per box question and model, IoU in ten bins. `questions` are the run's score and box questions.
 */
export function distributions(
  questions: readonly [string, Question][],
  keys: readonly string[],
  expected: ReadonlyMap<number, Record<string, unknown>>,
  results: readonly StoredEvalResult[],
): Distribution[] {
  const counts = new Map<string, Map<number, number>>();
  for (const r of results) {
    if (!r.ok) continue;
    const answers = r.answers as Record<string, { score?: number; box?: Edges }>;
    for (const [name, q] of questions) {
      const e = expected.get(r.position)?.[name];
      const a = answers[name];
      if (e === undefined || !a) continue;
      const at = q.type === 'score' ? Math.round(((a.score ?? 0) - (e as number)) * 2) / 2 : Math.min(9, Math.floor(iou(a.box!, e as Edges) * 10)) / 10;
      const key = `${name}\u0000${r.variant}`;
      const bucket = counts.get(key) ?? new Map<number, number>();
      bucket.set(at, (bucket.get(at) ?? 0) + 1);
      counts.set(key, bucket);
    }
  }
  return [...counts.entries()].map(([key, bucket]) => {
    const [question, variant] = key.split('\u0000') as [string, string];
    const type = questions.find(([n]) => n === question)![1].type as 'score' | 'box';
    return {
      question,
      type,
      model: keys[Number(variant)]!,
      buckets: [...bucket.entries()].sort((a, b) => a[0] - b[0]).map(([at, count]) => ({ at, count })),
    };
  });
}
