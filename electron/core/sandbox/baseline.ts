/**
 * The sandbox's transparent baseline. It is not a model: it scores each label by how many of
 * its words also appear in the state, then turns the scores into probabilities with a softmax.
 * Documented so that nobody mistakes its numbers for a model's judgement.
 */
const STOPWORDS = new Set(
  'the and for are but not you all any can had her was one our out day get has him his how man new now old see two way who boy did its let put say she too use that with this from have they will your what when were which their there been more into than them then these some would make like time just know take year good over such only also back after first well even want because'.split(
    ' ',
  ),
);

/** A crude stem so that "arrive" and "arrived" count as one word. */
const stem = (w: string): string => (w.length > 4 ? w.replace(/(ing|ed|es|s)$/, '') : w);

export function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem));
}

/** Share of the option's words that the state also contains, in [0, 1]. */
export function overlap(state: Set<string>, option: string): number {
  const optionWords = words(option);
  if (optionWords.size === 0) return 0;
  let shared = 0;
  for (const w of optionWords) if (state.has(w)) shared += 1;
  return shared / optionWords.size;
}

export function softmax(scores: readonly number[], temperature: number): number[] {
  const max = Math.max(...scores);
  const exps = scores.map((s) => Math.exp((s - max) / temperature));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

export interface LabelledPrompt {
  labels: string[];
  probabilities: number[];
}

const OPTION_LINE = /^([A-Z]+|\d+)\) (.+)$/gm;

/**
 * Splits a Decisions prompt into the content (state) and the question, which starts at the last
 * line beginning "Question:". Without one, everything is content and there is no question.
 */
export function splitPrompt(text: string): { state: string; question: string } {
  const at = text.lastIndexOf('Question:');
  return at === -1 ? { state: text, question: '' } : { state: text.slice(0, at), question: text.slice(at) };
}

/**
 * Reads the labels a Decisions prompt offers (lines `A) name: guidance`, or a Yes/No question)
 * and gives each a probability from its overlap with the state. Null when the prompt asks for
 * no label (a free-text call).
 */
export function labelProbabilities(stateText: string, question: string): LabelledPrompt | null {
  const state = words(stateText);
  const options = [...question.matchAll(OPTION_LINE)].map((m) => ({ label: m[1]!, text: m[2]! }));
  if (options.length > 0) {
    const probabilities = softmax(
      options.map((o) => overlap(state, o.text)),
      0.15,
    );
    return { labels: options.map((o) => o.label), probabilities };
  }
  if (/\bYes or No\b/.test(question)) {
    const statement = /^Question: (.*)$/m.exec(question)?.[1] ?? question;
    const yes = 0.1 + 0.8 * overlap(state, statement);
    return { labels: ['Yes', 'No'], probabilities: [yes, 1 - yes] };
  }
  return null;
}

/** Log-normal sample around a median. */
export function logNormal(random: () => number, median: number, sigma: number): number {
  const u = Math.max(1e-12, random());
  const v = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return median * Math.exp(sigma * normal);
}
