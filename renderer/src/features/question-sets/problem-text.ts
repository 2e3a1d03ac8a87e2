import type { ValidationProblem } from '../../../../shared/contract/result';

/** A problem as the form shows it: the field in the form's words, and what to do about it. */
export interface ShownProblem {
  field: string;
  fix: string;
}

const PREFERENCE_WORDS: Record<string, string> = {
  sort: 'Sort by',
  zdr: 'Zero data retention',
  order: 'Order',
  only: 'Only these providers',
  ignore: 'Ignore these providers',
  max_price: 'Maximum price',
  quantizations: 'Quantizations',
  data_collection: 'Data collection',
  allow_fallbacks: 'Allow fallbacks',
  require_parameters: 'Require parameters',
  preferred_max_latency: 'Preferred maximum latency',
  preferred_min_throughput: 'Preferred minimum throughput',
};

/** Splits `questions.q2.criteria[""]` or `questions["a b"].criteria[0]` into its parts. */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const m of path.matchAll(/\[("(?:[^"\\]|\\.)*"|\d+)\]|([^.[\]]+)/g)) {
    out.push(m[1] !== undefined ? (m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : m[1]) : m[2]!);
  }
  return out;
}

function questionProblem(name: string, rest: string[], problem: ValidationProblem): ShownProblem {
  const field = `Question “${name || '(unnamed)'}”`;
  const [part, key] = rest;
  if (rest.length === 0) {
    if (/two questions have this name/.test(problem.message)) return { field: `${field}, name`, fix: 'Two questions have this name: rename one of them.' };
    return { field, fix: `${problem.message}; check its type and fields.` };
  }
  if (part === 'instructions') return { field: `${field}, instructions`, fix: 'Write what the question asks (for example “Did the parcel arrive late?”).' };
  if (part === 'criteria') {
    if (key === '') return { field: `${field}, options`, fix: 'Give every option a name, or remove the empty option.' };
    if (key !== undefined && /^\d+$/.test(key)) return { field: `${field}, level ${key}`, fix: `${problem.message}; fix or remove this level.` };
    if (/too_small|at least|>=|expected array to have/i.test(problem.message))
      return { field: `${field}, levels or options`, fix: 'Add at least two levels (score) or two options (choice).' };
    if (key !== undefined) return { field: `${field}, option “${key}”`, fix: `${problem.message}; rename or remove this option.` };
    return { field: `${field}, levels or options`, fix: `${problem.message}; add the missing levels or options.` };
  }
  return { field: `${field}, ${rest.join(' ')}`, fix: `${problem.message}.` };
}

/** Turns a validation problem (a JSON path and a schema message) into words for the form. */
export function showProblem(problem: ValidationProblem): ShownProblem {
  const [head, ...rest] = segments(problem.path);
  if (head === 'state') {
    if (/blank|empty/.test(problem.message))
      return {
        field: 'State',
        fix: 'Write the content to judge in State, or add an image, to run the set here (it can be saved without: Evaluations takes content from each item).',
      };
    return {
      field: 'State',
      fix: problem.message.startsWith('not valid JSON')
        ? `The JSON is not valid (${problem.message.replace('not valid JSON: ', '')}); fix it or switch State to text.`
        : `${problem.message}.`,
    };
  }
  if (head === 'model') return { field: 'Model', fix: 'Pick a model from the list, or type an id of the form author/slug.' };
  if (head === 'questions') {
    if (rest.length === 0) return { field: 'Questions', fix: 'Add at least one question.' };
    return questionProblem(rest[0]!, rest.slice(1), problem);
  }
  if (head === 'provider') {
    if (rest.length === 0)
      return {
        field: 'Provider preferences',
        fix: problem.message.startsWith('not valid JSON') ? 'The JSON is not valid; fix it, or clear it and use the form.' : `${problem.message}.`,
      };
    const key = rest[0]!;
    const words = PREFERENCE_WORDS[key];
    if (/unknown property/.test(problem.message))
      return {
        field: `Provider preferences, “${rest.join('.')}”`,
        fix: `“${rest.at(-1)}” is not a preference here; check its spelling against the list above, or remove it.`,
      };
    return { field: `Provider preferences, ${words ?? key}`, fix: `${problem.message}; change it in the form above.` };
  }
  if (head === 'name') return { field: 'Name', fix: 'Give the set a name.' };
  return { field: problem.path || 'Request', fix: `${problem.message}.` };
}
