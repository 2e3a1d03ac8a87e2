/**
 * Examples to try a question set on, in place: a few contents, each with what its answers should
 * be (noted here, not guessed), kept per set in localStorage like drafts, and saved as a labelled
 * dataset when they are worth keeping.
 */
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Question } from '../../../../shared/schemas/question';

export interface Example {
  key: string;
  text: string;
  /** what each answer should be, by question name: 'true' | 'false', an option, a level index; absent when not said */
  expected: Record<string, string>;
}

const slot = (setId: string | undefined) => `verdict:examples:${setId ?? 'new'}`;

export function readExamples(setId: string | undefined): Example[] {
  try {
    const raw = localStorage.getItem(slot(setId));
    return raw ? (JSON.parse(raw) as Example[]) : [];
  } catch {
    return [];
  }
}

export function keepExamples(setId: string | undefined, examples: readonly Example[]): void {
  try {
    if (examples.length === 0) localStorage.removeItem(slot(setId));
    else localStorage.setItem(slot(setId), JSON.stringify(examples));
  } catch {
    // Storage full or disabled: the examples stay on screen, only not across a reload.
  }
}

/** What an answer to a question can be expected to be, as the form offers it: [value, words]. */
export function expectedChoices(question: Question): [string, string][] {
  if (question.type === 'noul')
    return [
      ['true', 'yes'],
      ['false', 'no'],
    ];
  if (question.type === 'choice') return Object.keys(question.criteria).map((o) => [o, o]);
  if (question.type === 'score')
    return question.criteria.map((c, i) => [String(i), `level ${i}${typeof c === 'string' && c ? ` (${c.split(':')[0]!.slice(0, 24)})` : ''}`]);
  return [];
}

type AnyAnswer = { type?: string; noul?: number; choice?: string; score?: number; probabilities?: Record<string, number> } | undefined;

/** The value an answer says, in the form's terms: yes/no at P(true) ≥ 0.5, the option, the most likely level. */
export function answeredValue(answer: unknown): string | null {
  const a = answer as AnyAnswer;
  if (!a) return null;
  if (a.type === 'noul') return String((a.noul ?? 0) >= 0.5);
  if (a.type === 'choice') return a.choice ?? null;
  if (a.type === 'score') {
    const entries = Object.entries(a.probabilities ?? {});
    if (entries.length === 0) return String(Math.round(a.score ?? 0));
    return entries.reduce((best, e) => (e[1] > best[1] || (e[1] === best[1] && Number(e[0]) < Number(best[0])) ? e : best))[0];
  }
  return null;
}

/** Whether an answer is the one expected: null when nothing was expected. */
export function matchesExpected(answer: unknown, expected: string | undefined): boolean | null {
  if (expected === undefined || expected === '') return null;
  return answeredValue(answer) === expected;
}

/** The examples as JSONL dataset rows, their expected answers typed as the importer reads them. */
export function examplesAsJsonl(examples: readonly Example[], questions: DecisionsRequest['questions']): string {
  return examples
    .map((e, i) => {
      const expected: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(e.expected)) {
        const q = questions[name] as Question | undefined;
        if (!q || value === '') continue;
        expected[name] = q.type === 'noul' ? value === 'true' : q.type === 'score' ? Number(value) : value;
      }
      return JSON.stringify({ id: `example-${i + 1}`, state: e.text, expected });
    })
    .join('\n');
}
