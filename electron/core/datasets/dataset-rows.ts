/**
 * Dataset rows checked against a question set: pure. A row is `{id, state, expected}`; every
 * problem names the file, the row (1-based; a CSV's header is row 1) and the field.
 */
import { StateSchema, type State } from '../../../shared/schemas/decisions-request';
import type { Expected, ImportProblem } from '../../../shared/schemas/evaluation';
import type { Question } from '../../../shared/schemas/question';

export interface RawRow {
  file: string;
  row: number;
  /** the value of each field by its name in the file (`expected.<name>` in a CSV, or `expected` as an object) */
  id?: unknown;
  state?: unknown;
  expected?: unknown;
  /** CSV: the raw text of each `expected.<name>` column */
  expectedColumns?: Record<string, string>;
  /** a problem found while reading the row (bad JSON, a missing column) */
  problem?: { field: string; message: string };
}

export interface ValidRow {
  id: string;
  state: State;
  expected: Expected;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Checks one expected value; returns the value as stored or a message saying what is wrong. */
export function checkExpected(question: Question, value: unknown): { value: Expected[string] } | { message: string } {
  switch (question.type) {
    case 'noul': {
      if (typeof value === 'boolean') return { value };
      const meant = booleanMeant(value);
      return { message: `expected true or false for a noul question, got ${JSON.stringify(value)}${meant === null ? '' : `; did you mean ${meant}?`}` };
    }
    case 'choice': {
      const options = Object.keys(question.criteria);
      if (typeof value === 'string' && options.includes(value)) return { value };
      const near = typeof value === 'string' ? nearestOption(value, options) : null;
      return {
        message: `${JSON.stringify(value)} is not an option of this question${near === null ? '' : `; did you mean ${JSON.stringify(near)}?`} (options: ${options.map((o) => JSON.stringify(o)).join(', ')})`,
      };
    }
    case 'score': {
      const levels = question.criteria.length;
      if (Number.isInteger(value) && (value as number) >= 0 && (value as number) < levels) return { value: value as number };
      return { message: `score level ${JSON.stringify(value)} is out of range: expected a whole number from 0 to ${levels - 1}` };
    }
    case 'box': {
      const b = value as Record<string, unknown> | null;
      if (!b || typeof b !== 'object' || Array.isArray(b)) return { message: 'expected a box {top, bottom, left, right}' };
      const keys = ['top', 'bottom', 'left', 'right'] as const;
      for (const k of keys) if (!isNumber(b[k]) || b[k] < 0 || b[k] > 1) return { message: `box.${k} must be a number from 0 to 1` };
      const extra = Object.keys(b).filter((k) => !(keys as readonly string[]).includes(k));
      if (extra.length) return { message: `box has unknown field "${extra[0]}"` };
      const box = { top: b['top'] as number, bottom: b['bottom'] as number, left: b['left'] as number, right: b['right'] as number };
      if (box.top >= box.bottom) return { message: `box top (${box.top}) must be less than bottom (${box.bottom})` };
      if (box.left >= box.right) return { message: `box left (${box.left}) must be less than right (${box.right})` };
      return { value: box };
    }
  }
}

/**
 * The value a wrong expected answer most likely meant (a yes/no word for a noul question, an option
 * in another case or spacing for a choice); undefined when there is none. Suggested in the problem,
 * and taken only when the import is asked to take the suggestions (one action for the lot).
 */
export function suggestedExpected(question: Question, value: unknown): boolean | string | undefined {
  if (question.type === 'noul') return booleanMeant(value) ?? undefined;
  if (question.type === 'choice' && typeof value === 'string') return nearestOption(value, Object.keys(question.criteria)) ?? undefined;
  return undefined;
}

/**
 * What a yes/no cell most likely meant: yes, no, y, n, 1, 0, t, f in any case, and True or FALSE as
 * spreadsheets write them; null when it says nothing of the kind. Suggested, and taken only when
 * asked: otherwise the file is fixed where it was written, and its other rows read as it meant them.
 */
export function booleanMeant(value: unknown): boolean | null {
  const t = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim().toLowerCase() : null;
  if (t === null) return null;
  if (['true', 'yes', 'y', '1', 't'].includes(t)) return true;
  if (['false', 'no', 'n', '0', 'f'].includes(t)) return false;
  return null;
}

/** The option a cell most likely meant: the same name in another case or spacing ("Billing " for "billing"); null when none. */
export function nearestOption(value: string, options: readonly string[]): string | null {
  const fold = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, ' ');
  return options.find((o) => fold(o) === fold(value)) ?? null;
}

/** Expected answers of a dataset with one value, and how many items give it. */
export interface ExpectedGroup {
  /** the question's name */
  name: string;
  value: unknown;
  items: number;
  /** the id of one item that gives it */
  example: string;
}

/** What a question set cannot take of a dataset's expected answers, one line per question and value; questions it does not ask are left out. */
export function expectedMisfits(groups: ExpectedGroup[], questions: Record<string, Question>): string[] {
  const misfits: string[] = [];
  for (const group of groups) {
    const question = Object.hasOwn(questions, group.name) ? questions[group.name] : undefined;
    if (!question) continue;
    const checked = checkExpected(question, group.value);
    if ('message' in checked)
      misfits.push(`expected.${group.name}: ${checked.message} (${group.items === 1 ? '1 item' : `${group.items} items`}, e.g. "${group.example}")`);
  }
  return misfits;
}

/** A CSV cell as the question's type reads it: true/false, an option name, an integer, or box JSON. */
export function parseCsvExpected(question: Question, text: string): unknown {
  const t = text.trim();
  if (question.type === 'noul') return t === 'true' ? true : t === 'false' ? false : t;
  if (question.type === 'score') return /^-?\d+$/.test(t) ? Number(t) : t;
  if (question.type === 'box') {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return t;
    }
  }
  return text;
}

/**
 * One row checked against the questions. With `takeSuggestions`, an expected answer that has a
 * suggested value (suggestedExpected) is read as that value and counted in `taken`; otherwise its
 * problem carries the suggestion.
 */
export function validateRow(
  raw: RawRow,
  questions: Record<string, Question>,
  options: { takeSuggestions?: boolean } = {},
): { row: ValidRow; taken: number } | { problems: ImportProblem[] } {
  const at = (field: string, message: string): ImportProblem => ({ file: raw.file, row: raw.row, field, message });
  if (raw.problem) return { problems: [at(raw.problem.field, raw.problem.message)] };
  const problems: ImportProblem[] = [];
  const id = typeof raw.id === 'number' ? String(raw.id) : raw.id;
  if (typeof id !== 'string' || id.length === 0) problems.push(at('id', 'every item needs a non-empty id'));
  const state = StateSchema.safeParse(raw.state);
  if (raw.state === undefined || raw.state === '') problems.push(at('state', 'every item needs a state'));
  else if (!state.success) problems.push(at('state', 'expected a string, a JSON object or a JSON array'));
  const expected: Expected = {};
  let taken = 0;
  const entries: [string, unknown, string][] = [];
  if (raw.expectedColumns) {
    for (const [name, text] of Object.entries(raw.expectedColumns)) {
      if (text.trim() === '') continue;
      const q = questions[name];
      entries.push([name, q ? parseCsvExpected(q, text) : text, `expected.${name}`]);
    }
  } else if (raw.expected !== undefined && raw.expected !== null) {
    if (typeof raw.expected !== 'object' || Array.isArray(raw.expected))
      problems.push(at('expected', 'expected must be an object of answers by question name'));
    else for (const [name, value] of Object.entries(raw.expected)) if (value !== null) entries.push([name, value, `expected.${name}`]);
  }
  for (const [name, value, field] of entries) {
    const q = Object.hasOwn(questions, name) ? questions[name] : undefined;
    if (!q) {
      problems.push(
        at(
          field,
          `unknown question "${name}" (the set has ${Object.keys(questions)
            .map((n) => `"${n}"`)
            .join(', ')})`,
        ),
      );
      continue;
    }
    const checked = checkExpected(q, value);
    if ('value' in checked) {
      expected[name] = checked.value;
      continue;
    }
    const suggestion = suggestedExpected(q, value);
    if (suggestion !== undefined && options.takeSuggestions) {
      expected[name] = suggestion;
      taken += 1;
    } else problems.push({ ...at(field, checked.message), ...(suggestion !== undefined ? { suggestion } : {}) });
  }
  if (problems.length > 0) return { problems };
  return { row: { id: id as string, state: state.data as State, expected }, taken };
}
