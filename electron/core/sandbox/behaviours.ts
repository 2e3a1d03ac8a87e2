/**
 * How each simulated chat model reads a question, so the fleet shows a model choice the way real
 * ones differ: one reads the question's criteria and is priced high, one is cheap and states its
 * answers far more surely than it gets them right, one leans to the common answer and misses the
 * rare one. Every answer is a fixed function of the prompt (no chance involved): the same item gets
 * the same answer from a model on every run and every endpoint.
 */
import { labelProbabilities, overlap, softmax, words, type LabelledPrompt } from './baseline';

export interface ModelBehaviour {
  /** Multiplies the prices of the endpoints that serve the model. */
  priceFactor: number;
  /** Multiplies the endpoints' time to first token. */
  latencyFactor: number;
  /** Label probabilities for a prompt's question, or null for a free-text call. */
  read(state: string, question: string): LabelledPrompt | null;
}

/** FNV-1a over the text: a stable number per prompt, for answers that slip on a fixed share of items. */
export function promptHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The parts of a Decisions question prompt (labels.ts writes them). */
function parts(question: string) {
  const line = (prefix: string) => new RegExp(`^${prefix}(.*)$`, 'm').exec(question)?.[1] ?? '';
  const options = [...question.matchAll(/^([A-Z]+|\d+)\) (.+)$/gm)].map((m) => ({ label: m[1]!, text: m[2]! }));
  return {
    asked: line('Question: '),
    whenTrue: line('It is true when: '),
    whenFalse: line('It is false when: '),
    options,
    yesNo: /\bYes or No\b/.test(question),
  };
}

/** Words of `text` the state has, a word also matching one that shares its first five letters ("crashes", "crashed"). */
function matched(state: Set<string>, text: string): number {
  const prefixes = new Set([...state].filter((w) => w.length >= 5).map((w) => w.slice(0, 5)));
  let n = 0;
  for (const w of words(text)) if (state.has(w) || (w.length >= 5 && prefixes.has(w.slice(0, 5)))) n += 1;
  return n;
}

/**
 * Sharp: weighs what the question says makes it true against what makes it false, and counts the
 * words of each option's name and guidance the content has, with moderate confidence.
 */
function sharpRead(stateText: string, question: string): LabelledPrompt | null {
  const state = words(stateText);
  const q = parts(question);
  if (q.options.length > 0)
    return {
      labels: q.options.map((o) => o.label),
      probabilities: softmax(
        q.options.map((o) => matched(state, o.text)),
        0.6,
      ),
    };
  if (!q.yesNo) return null;
  const forTrue = Math.max(overlap(state, q.whenTrue), overlap(state, q.asked));
  const forFalse = q.whenFalse ? overlap(state, q.whenFalse) : 0.1;
  const yes = sigmoid(25 * (forTrue - forFalse) - 1.6);
  return { labels: ['Yes', 'No'], probabilities: [yes, 1 - yes] };
}

/** Mini: Sharp's answers stated nearly surely (p^5, renormalised), and confidently wrong on one prompt in six. */
function miniRead(stateText: string, question: string): LabelledPrompt | null {
  const base = sharpRead(stateText, question);
  if (!base) return null;
  const sharpened = base.probabilities.map((p) => p ** 5);
  const total = sharpened.reduce((a, b) => a + b, 0);
  const probabilities = sharpened.map((p) => p / total);
  if (promptHash(stateText + question) % 6 === 0) {
    // A slip: the two most likely labels trade places.
    const order = probabilities.map((p, i) => ({ p, i })).sort((a, b) => b.p - a.p);
    if (order.length > 1) [probabilities[order[0]!.i], probabilities[order[1]!.i]] = [order[1]!.p, order[0]!.p];
  }
  return { labels: base.labels, probabilities };
}

/** Skewed: leans to the common answer: P(yes) never passes 0.18, and the first option or level gets six times its weight. */
function skewedRead(stateText: string, question: string): LabelledPrompt | null {
  const q = parts(question);
  if (q.yesNo && q.options.length === 0) {
    const yes = 0.02 + 0.16 * overlap(words(stateText), q.asked);
    return { labels: ['Yes', 'No'], probabilities: [yes, 1 - yes] };
  }
  const base = labelProbabilities(stateText, question);
  if (!base) return null;
  const weighted = base.probabilities.map((p, i) => (i === 0 ? 6 * p : p));
  const total = weighted.reduce((a, b) => a + b, 0);
  return { labels: base.labels, probabilities: weighted.map((p) => p / total) };
}

const BASELINE: ModelBehaviour = { priceFactor: 1, latencyFactor: 1, read: labelProbabilities };

export const BEHAVIOURS: Record<string, ModelBehaviour> = {
  'sandbox/baseline-text': BASELINE,
  'sandbox/baseline-vision': BASELINE,
  'sandbox/sharp-large': { priceFactor: 8, latencyFactor: 2.5, read: sharpRead },
  'sandbox/cheap-mini': { priceFactor: 0.2, latencyFactor: 0.5, read: miniRead },
  'sandbox/skewed-small': { priceFactor: 0.5, latencyFactor: 0.8, read: skewedRead },
};

export const behaviourOf = (model: string): ModelBehaviour => BEHAVIOURS[model] ?? BASELINE;

/** A price string (USD per token) times a factor, as the catalog writes prices. */
export const scaledPrice = (price: string, factor: number) => (factor === 1 ? price : String(Number((Number(price) * factor).toPrecision(6))));
