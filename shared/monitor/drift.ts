/**
 * What live answers to one question look like over a window, and how far they moved from a
 * reference window: pure, over answers as the API gives them (a captured request's predictions).
 *
 * - yes/no (noul): the yes-rate (the share with P(true) ≥ 0.5) and the mean P(true); drift is the
 *   yes-rate's change, in points of share.
 * - choice and score: the share of each option or level; drift is the population stability index,
 *   Σ (p − q)·ln(p / q) over categories, each share floored at 0.0001 so that a category new to one
 *   window counts without dividing by zero.
 * - box: the mean area and centre of the boxes; drift is the centre's move (in fractions of the image)
 *   or the area's relative change, whichever is larger.
 */
export type AnswerKind = 'noul' | 'choice' | 'score' | 'box';

export interface QuestionFigures {
  question: string;
  kind: AnswerKind;
  /** answers of this question in the window */
  n: number;
  /** share per category: "yes"/"no", an option, a level; for boxes empty */
  shares: Record<string, number>;
  /** mean confidence of the answers that carry one (P(true) for yes/no); null when none does */
  mean_confidence: number | null;
  /** boxes: mean area and centre; else null */
  box: { area: number; x: number; y: number } | null;
}

export interface QuestionDrift extends QuestionFigures {
  /** the same figures over the reference window */
  reference: QuestionFigures | null;
  /** how far the window moved from the reference (see above); null when either window has no answers */
  drift: number | null;
  /** drift above the threshold for its kind */
  alert: boolean;
}

/** Default thresholds: a yes-rate moved 10 points, a PSI of 0.2 (the usual "significant shift"), a box moved or resized 10%. */
export const DRIFT_THRESHOLDS: Readonly<Record<AnswerKind, number>> = { noul: 0.1, choice: 0.2, score: 0.2, box: 0.1 };

type AnyAnswer = { type?: unknown; noul?: unknown; choice?: unknown; score?: unknown; confidence?: unknown; box?: unknown };
const FLOOR = 0.0001;

function categoryOf(a: AnyAnswer): string | null {
  if (a.type === 'noul' && typeof a.noul === 'number') return a.noul >= 0.5 ? 'yes' : 'no';
  if (a.type === 'choice' && typeof a.choice === 'string') return a.choice;
  if (a.type === 'score' && typeof a.score === 'number') return String(a.score);
  return null;
}

/** An answer's category as the shares count it ("yes"/"no", the option, the level), "box" for a box; null for no answer. */
export function answerCategory(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const a = answer as AnyAnswer;
  return a.type === 'box' ? 'box' : categoryOf(a);
}

/** One question's figures over a window's answers (each an answer object, or undefined where the request had none). */
export function figuresOf(question: string, answers: readonly unknown[]): QuestionFigures | null {
  const given = answers.filter((a): a is AnyAnswer => typeof a === 'object' && a !== null && typeof (a as AnyAnswer).type === 'string');
  const kind = given[0]?.type as AnswerKind | undefined;
  if (!kind) return null;
  const same = given.filter((a) => a.type === kind);
  const counts = new Map<string, number>();
  const confidences: number[] = [];
  const boxes: { area: number; x: number; y: number }[] = [];
  for (const a of same) {
    const category = categoryOf(a);
    if (category !== null) counts.set(category, (counts.get(category) ?? 0) + 1);
    const confidence = kind === 'noul' ? a.noul : a.confidence;
    if (typeof confidence === 'number') confidences.push(confidence);
    const b = a.box as { top: number; bottom: number; left: number; right: number } | undefined;
    if (kind === 'box' && b) boxes.push({ area: (b.bottom - b.top) * (b.right - b.left), x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 });
  }
  const n = same.length;
  const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    question,
    kind,
    n,
    shares: Object.fromEntries([...counts].map(([c, k]) => [c, k / n])),
    mean_confidence: confidences.length > 0 ? mean(confidences) : null,
    box: boxes.length > 0 ? { area: mean(boxes.map((b) => b.area)), x: mean(boxes.map((b) => b.x)), y: mean(boxes.map((b) => b.y)) } : null,
  };
}

/** How far `now` moved from `before`, by the measure of its kind. */
export function driftOf(now: QuestionFigures, before: QuestionFigures): number | null {
  if (now.n === 0 || before.n === 0 || now.kind !== before.kind) return null;
  if (now.kind === 'noul') return Math.abs((now.shares['yes'] ?? 0) - (before.shares['yes'] ?? 0));
  if (now.kind === 'box') {
    if (!now.box || !before.box) return null;
    const moved = Math.hypot(now.box.x - before.box.x, now.box.y - before.box.y);
    const resized = before.box.area > 0 ? Math.abs(now.box.area - before.box.area) / before.box.area : 0;
    return Math.max(moved, resized);
  }
  const categories = new Set([...Object.keys(now.shares), ...Object.keys(before.shares)]);
  let psi = 0;
  for (const c of categories) {
    const p = Math.max(now.shares[c] ?? 0, FLOOR);
    const q = Math.max(before.shares[c] ?? 0, FLOOR);
    psi += (p - q) * Math.log(p / q);
  }
  return psi;
}

/** Each question's figures over the window beside the reference's, with its drift and whether it passes the threshold. */
export function compareWindows(
  window: readonly Record<string, unknown>[],
  reference: readonly Record<string, unknown>[],
  thresholds: Readonly<Record<AnswerKind, number>> = DRIFT_THRESHOLDS,
): QuestionDrift[] {
  const questions = [...new Set([...window, ...reference].flatMap((answers) => Object.keys(answers)))].sort();
  return questions.flatMap((question) => {
    const now = figuresOf(
      question,
      window.map((a) => a[question]),
    );
    if (!now) return [];
    const before = figuresOf(
      question,
      reference.map((a) => a[question]),
    );
    const drift = before ? driftOf(now, before) : null;
    return [{ ...now, reference: before, drift, alert: drift !== null && drift > thresholds[now.kind] }];
  });
}
