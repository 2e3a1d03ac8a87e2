import type { StoredReview } from './storage';

/** How two reviewers agreed on one question over the items both answered. */
export interface QuestionAgreement {
  question: string;
  /** items both reviewers answered (flagged reviews left out) */
  pairs: number;
  /** the share of those where they gave the same answer */
  observed: number | null;
  /** Cohen's kappa: agreement beyond what their own answer rates give by chance; null when it cannot be worked out (no pairs, or chance agreement of 1) */
  kappa: number | null;
  /** its 95% interval (large-sample standard error, Cohen 1960), within [-1, 1] */
  low: number | null;
  high: number | null;
}

const key = (value: unknown) => JSON.stringify(value);

/**
 * Agreement per question between the first and second review of each double-reviewed item: pure.
 * Answers are compared as given (a yes/no, an option, a level: unweighted kappa); box answers are
 * not categories and are left out.
 */
export function agreement(reviews: readonly StoredReview[]): QuestionAgreement[] {
  const byItem = new Map<number, StoredReview[]>();
  for (const r of reviews) if (!r.flagged) byItem.set(r.position, [...(byItem.get(r.position) ?? []), r]);
  const pairs = [...byItem.values()]
    .filter((rs) => rs.length === 2)
    .map((rs) => [...rs].sort((a, b) => (a.at < b.at ? -1 : 1)) as [StoredReview, StoredReview]);
  const questions = new Set(pairs.flatMap(([a, b]) => [...Object.keys(a.answers), ...Object.keys(b.answers)]));
  return [...questions].sort().flatMap((question) => {
    const both = pairs.filter(([a, b]) => question in a.answers && question in b.answers).map(([a, b]) => [a.answers[question], b.answers[question]] as const);
    if (both.some(([a]) => a !== null && typeof a === 'object')) return [];
    return [kappaOf(question, both)];
  });
}

function kappaOf(question: string, both: readonly (readonly [unknown, unknown])[]): QuestionAgreement {
  const n = both.length;
  if (n === 0) return { question, pairs: 0, observed: null, kappa: null, low: null, high: null };
  const first = new Map<string, number>();
  const second = new Map<string, number>();
  let same = 0;
  for (const [a, b] of both) {
    first.set(key(a), (first.get(key(a)) ?? 0) + 1);
    second.set(key(b), (second.get(key(b)) ?? 0) + 1);
    if (key(a) === key(b)) same += 1;
  }
  const po = same / n;
  let pe = 0;
  for (const [category, count] of first) pe += (count / n) * ((second.get(category) ?? 0) / n);
  if (pe >= 1) return { question, pairs: n, observed: po, kappa: null, low: null, high: null };
  const kappa = (po - pe) / (1 - pe);
  const se = Math.sqrt((po * (1 - po)) / (n * (1 - pe) ** 2));
  return { question, pairs: n, observed: po, kappa, low: Math.max(-1, kappa - 1.96 * se), high: Math.min(1, kappa + 1.96 * se) };
}
