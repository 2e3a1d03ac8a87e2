import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import { DecisionsRequestSchema } from '../../../../shared/schemas/decisions-request';
import { describeIssues, type ValidationProblem } from '../../../../shared/contract/result';

/** What the editor holds: friendlier than the wire shape, turned into a DecisionsRequest on save. */
export interface QuestionDraft {
  key: string;
  name: string;
  type: 'noul' | 'choice' | 'score' | 'box';
  instructions: string;
  trueWhen: string;
  falseWhen: string;
  options: { key: string; name: string; guidance: string }[];
  levels: { key: string; text: string }[];
}

export interface ImageDraft {
  key: string;
  name: string;
  dataUrl: string;
}

export interface SetDraft {
  id: string | undefined;
  name: string;
  model: string;
  stateMode: 'text' | 'json';
  stateText: string;
  images: ImageDraft[];
  questions: QuestionDraft[];
  preferences: string;
  /** The cascade preset the set is run with, by name; '' for none. */
  cascade: string;
}

let counter = 0;
export const newKey = (): string => `k${(counter += 1)}`;

export function newQuestion(type: QuestionDraft['type'] = 'noul', name = ''): QuestionDraft {
  return {
    key: newKey(),
    name,
    type,
    instructions: '',
    trueWhen: '',
    falseWhen: '',
    options: [
      { key: newKey(), name: '', guidance: '' },
      { key: newKey(), name: '', guidance: '' },
    ],
    levels: [
      { key: newKey(), text: '' },
      { key: newKey(), text: '' },
    ],
  };
}

export const emptyDraft = (model = ''): SetDraft => ({
  id: undefined,
  name: 'Untitled set',
  model,
  stateMode: 'text',
  stateText: '',
  images: [],
  questions: [newQuestion('noul', 'q1')],
  preferences: '',
  cascade: '',
});

/** Guidance typed as JSON stays structured; anything else is text. */
function guidance(text: string): unknown {
  const t = text.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return JSON.parse(t);
    } catch {
      return text;
    }
  }
  return text;
}

const asText = (g: unknown): string => (typeof g === 'string' ? g : JSON.stringify(g, null, 2));

export interface Built {
  request: unknown;
  problems: ValidationProblem[];
  /** The request, when it can be run: no problem at all. */
  valid: DecisionsRequest | null;
  /**
   * The request, when it can be saved and exported: blank content is the only problem allowed, since
   * a set used over a dataset (Evaluations, `npm run eval`) takes its content from each item.
   */
  savable: DecisionsRequest | null;
}

export const BLANK_STATE = 'the state is blank';

/** The request the draft describes, and every problem with it, by JSON path. */
export function buildRequest(draft: SetDraft): Built {
  const problems: ValidationProblem[] = [];
  let state: unknown = draft.stateText;
  if (draft.stateMode === 'json') {
    try {
      state = JSON.parse(draft.stateText || 'null');
    } catch (error) {
      problems.push({ path: 'state', message: `not valid JSON: ${(error as Error).message}` });
      state = draft.stateText;
    }
  }
  if (draft.images.length > 0) {
    const text =
      draft.stateMode === 'json' ? [{ type: 'text', text: JSON.stringify(state) }] : draft.stateText ? [{ type: 'text', text: draft.stateText }] : [];
    state = [...text, ...draft.images.map((i) => ({ type: 'image_url', image_url: { url: i.dataUrl } }))];
  }
  // Blank content or a blank instruction is still a valid wire request, but it asks nothing: not run, not billed.
  const blank = !draft.stateText.trim() && draft.images.length === 0;
  if (blank) problems.push({ path: 'state', message: BLANK_STATE });
  const questions: Record<string, unknown> = {};
  for (const q of draft.questions) {
    if (!q.instructions.trim()) problems.push({ path: `questions.${q.name}.instructions`, message: 'the instructions are blank' });
    if (q.name in questions) problems.push({ path: `questions.${q.name}`, message: 'two questions have this name' });
    const base = { type: q.type, instructions: guidance(q.instructions) };
    if (q.type === 'noul')
      questions[q.name] = q.trueWhen || q.falseWhen ? { ...base, criteria: { true: guidance(q.trueWhen), false: guidance(q.falseWhen) } } : base;
    else if (q.type === 'choice')
      questions[q.name] = { ...base, criteria: Object.fromEntries(q.options.map((o) => [o.name, o.guidance.trim() ? guidance(o.guidance) : null])) };
    else if (q.type === 'score') questions[q.name] = { ...base, criteria: q.levels.map((l) => guidance(l.text)) };
    else questions[q.name] = base;
  }
  let provider: unknown;
  if (draft.preferences.trim()) {
    try {
      provider = JSON.parse(draft.preferences);
    } catch (error) {
      problems.push({ path: 'provider', message: `not valid JSON: ${(error as Error).message}` });
    }
  }
  const request = { model: draft.model, state, questions, ...(provider !== undefined ? { provider } : {}) };
  const parsed = DecisionsRequestSchema.safeParse(request);
  if (!parsed.success) problems.push(...describeIssues(parsed.error));
  const otherProblems = problems.filter((p) => !(p.path === 'state' && p.message === BLANK_STATE));
  return {
    request,
    problems,
    valid: parsed.success && problems.length === 0 ? parsed.data : null,
    savable: parsed.success && otherProblems.length === 0 ? parsed.data : null,
  };
}

/** The editor's view of a saved request. */
export function draftFrom(id: string | undefined, name: string, request: DecisionsRequest, cascade: string | null = null): SetDraft {
  const images: ImageDraft[] = [];
  let stateText = '';
  let stateMode: SetDraft['stateMode'] = 'text';
  if (typeof request.state === 'string') stateText = request.state;
  else if (Array.isArray(request.state) && request.state.some((p) => (p as { type?: string }).type === 'image_url')) {
    for (const part of request.state as { type?: string; text?: string; image_url?: { url: string } }[]) {
      if (part.type === 'image_url' && part.image_url) images.push({ key: newKey(), name: `image ${images.length + 1}`, dataUrl: part.image_url.url });
      else if (part.type === 'text') stateText += part.text ?? '';
    }
  } else {
    stateMode = 'json';
    stateText = JSON.stringify(request.state, null, 2);
  }
  const questions = Object.entries(request.questions).map(([qname, q]) => {
    const d = newQuestion(q.type, qname);
    d.instructions = asText(q.instructions);
    if (q.type === 'noul' && q.criteria) {
      d.trueWhen = asText(q.criteria.true);
      d.falseWhen = asText(q.criteria.false);
    }
    if (q.type === 'choice') d.options = Object.entries(q.criteria).map(([o, g]) => ({ key: newKey(), name: o, guidance: g === null ? '' : asText(g) }));
    if (q.type === 'score') d.levels = q.criteria.map((c) => ({ key: newKey(), text: asText(c) }));
    return d;
  });
  return {
    id,
    name,
    model: request.model,
    stateMode,
    stateText,
    images,
    questions,
    preferences: request.provider ? JSON.stringify(request.provider, null, 2) : '',
    cascade: cascade ?? '',
  };
}

export const problemsAt = (problems: ValidationProblem[], prefix: string): ValidationProblem[] =>
  problems.filter((p) => p.path === prefix || p.path.startsWith(`${prefix}.`) || p.path.startsWith(`${prefix}[`));
