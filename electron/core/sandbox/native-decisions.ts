import { DecisionsRequestSchema } from '../../../shared/schemas/decisions-request';
import { OpenAiDecisionRequestSchema, type OpenAiQuestion } from '../../../shared/schemas/openai-decisions';
import type { Answer } from '../../../shared/schemas/answer';
import type { Guidance } from '../../../shared/schemas/guidance';
import type { Question } from '../../../shared/schemas/question';
import { overlap, softmax, words } from './baseline';
import type { SandboxProfile } from './profiles';
import { guidanceText } from '../validation';
import { nativePromptTokens } from './counting';
import type { Foreground } from '../images/pool';

/**
 * The simulated decision hosts: one of each wire family, answering from the sandbox's transparent
 * baseline (word overlap; image statistics for boxes), never a model's judgement. Each holds
 * requests to its family's published rules and answers as its family's hosts do: two decimals,
 * a `confidence` that is a statistic of its own (1 − normalised entropy, not the top probability),
 * output free.
 */

export type HostReply = { status: number; body: unknown };

/** Finds the box in an image (a data URL), off the server's thread; null when nothing stands out or it cannot be read. */
export type Locate = (dataUrl: string) => Promise<Foreground | null>;

const round2 = (x: number) => Math.round(x * 100) / 100;

/** 1 − entropy / log(n): 1 when one option has all the mass, 0 when all are equal. */
function concentration(p: readonly number[]): number {
  if (p.length < 2) return 1;
  const entropy = -p.reduce((s, x) => (x > 0 ? s + x * Math.log(x) : s), 0);
  return round2(1 - entropy / Math.log(p.length));
}

const textOf = (g: Guidance | null | undefined) => (g === null || g === undefined ? '' : guidanceText(g));

/** The baseline's answer to one question, rounded as the family's hosts round. */
function baselineAnswer(question: Question, state: Set<string>, found: Foreground | null): Answer | null {
  switch (question.type) {
    case 'noul':
      return { type: 'noul', noul: round2(0.1 + 0.8 * overlap(state, `${textOf(question.instructions)} ${textOf(question.criteria?.true)}`)) };
    case 'choice': {
      const names = Object.keys(question.criteria);
      const p = softmax(
        names.map((n) => overlap(state, `${n} ${textOf(question.criteria[n])}`)),
        0.15,
      );
      const best = p.indexOf(Math.max(...p));
      return { type: 'choice', choice: names[best]!, confidence: concentration(p), probabilities: Object.fromEntries(names.map((n, i) => [n, round2(p[i]!)])) };
    }
    case 'score': {
      const p = softmax(
        question.criteria.map((c) => overlap(state, textOf(c))),
        0.15,
      );
      return {
        type: 'score',
        score: round2(p.reduce((s, pi, i) => s + i * pi, 0)),
        confidence: concentration(p),
        probabilities: Object.fromEntries(p.map((pi, i) => [String(i), round2(pi)])),
        legend: Object.fromEntries(question.criteria.map((c, i) => [String(i), c])),
      };
    }
    case 'box': {
      if (!found) return null;
      const f = { top: found.top / found.height, left: found.left / found.width, bottom: found.bottom / found.height, right: found.right / found.width };
      return { type: 'box', box: { top: +f.top.toFixed(4), bottom: +f.bottom.toFixed(4), left: +f.left.toFixed(4), right: +f.right.toFixed(4) } };
    }
  }
}

const firstImage = (state: unknown): string | null => {
  if (!Array.isArray(state)) return null;
  for (const item of state) {
    const url =
      (item as { type?: string; image_url?: { url?: string } })?.type === 'image_url' ? (item as { image_url?: { url?: string } }).image_url?.url : undefined;
    if (typeof url === 'string') return url;
  }
  return null;
};

const stateText = (state: unknown): string =>
  typeof state === 'string'
    ? state
    : Array.isArray(state)
      ? state.map((i) => (typeof i === 'string' ? i : (i as { type?: string })?.type === 'image_url' ? '' : JSON.stringify(i))).join('\n')
      : JSON.stringify(state);

function usage(text: string, questions: number, profile: SandboxProfile, withCost: boolean) {
  const input = nativePromptTokens(text.length, questions);
  return { input_tokens: input, output_tokens: questions, ...(withCost ? { cost: +(input * Number(profile.promptPrice)).toPrecision(6) } : {}) };
}

/** Another gateway's `/api/alpha/decisions` (OpenRouter's shape): boxes over images in `state`, `cost` in the usage. */
export async function gatewayDecide(body: unknown, profile: SandboxProfile, locate: Locate): Promise<HostReply> {
  const parsed = DecisionsRequestSchema.safeParse(body);
  if (!parsed.success)
    return {
      status: 400,
      body: { error: { code: 400, message: `Invalid DecisionsRequest: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}` } },
    };
  const request = parsed.data;
  if (!profile.models.includes(request.model))
    return { status: 404, body: { error: { code: 404, message: `Model ${request.model} is not a decisions model here` } } };
  const text = stateText(request.state);
  const state = words(text);
  const answers: Record<string, Answer> = {};
  // Images in the state, or sent once in `assets` (a box refers to the asset its instructions name in backticks).
  const assets = Object.entries(request.assets ?? {});
  const assetImage = (instructions: string) => {
    const [, asset] = assets.find(([key]) => instructions.includes(`\`${key}\``)) ?? assets[0] ?? [];
    return asset ? `data:image/${asset.format === 'png' ? 'png' : 'jpeg'};base64,${asset.data_base64}` : null;
  };
  for (const [name, q] of Object.entries(request.questions)) {
    const image = q.type === 'box' ? (firstImage(request.state) ?? assetImage(textOf(q.instructions))) : null;
    const answer = baselineAnswer(q, state, image ? await locate(image) : null);
    if (!answer) return { status: 400, body: { error: { code: 400, message: `questions.${name}: a box question needs an image in state` } } };
    answers[name] = answer;
  }
  return {
    status: 200,
    body: {
      id: `gen-dec-sbx-${Date.now().toString(36)}`,
      model: request.model,
      provider: profile.name,
      answers,
      usage: usage(text, Object.keys(answers).length, profile, true),
    },
  };
}

/** TypeSafe's System One contract: FastAPI's 422 `detail[]` for a body it cannot take; no box, no images. */
export function systemOneDecide(body: unknown, profile: SandboxProfile): HostReply {
  const missing = ['model', 'state', 'questions'].filter((k) => typeof body !== 'object' || body === null || !(k in body));
  if (missing.length > 0) return { status: 422, body: { detail: missing.map((k) => ({ loc: ['body', k], msg: 'Field required', type: 'missing' })) } };
  const parsed = DecisionsRequestSchema.safeParse(body);
  if (!parsed.success) {
    return {
      status: 422,
      body: { detail: parsed.error.issues.slice(0, 5).map((i) => ({ loc: ['body', ...i.path.map(String)], msg: i.message, type: 'value_error' })) },
    };
  }
  const request = parsed.data;
  if (!profile.models.includes(request.model)) return { status: 400, body: { detail: 'Invalid request.' } };
  const text = stateText(request.state);
  const state = words(text);
  const answers: Record<string, Answer> = {};
  for (const [name, q] of Object.entries(request.questions)) {
    if (q.type === 'box')
      return {
        status: 422,
        body: { detail: [{ loc: ['body', 'questions', name, 'type'], msg: "Input should be 'noul', 'choice' or 'score'", type: 'literal_error' }] },
      };
    answers[name] = baselineAnswer(q, state, null)!;
  }
  return { status: 200, body: { model: request.model, answers, usage: usage(text, Object.keys(answers).length, profile, false) } };
}

/** A path as OpenAI names parameters: `questions[0].criteria`. */
const openAiParam = (path: readonly PropertyKey[]) =>
  path.reduce<string>((name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)), '');

const openAiError = (status: number, message: string, param: string | null, code: string | null): HostReply => ({
  status,
  body: { error: { message, type: 'invalid_request_error', param, code } },
});

/** OpenAI's Decisions: `input` + ordered questions, strict about unknown keys, answers in question order. */
export function openAiDecide(body: unknown, profile: SandboxProfile): HostReply {
  const parsed = OpenAiDecisionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const param = openAiParam([...issue.path, issue.keys[0]!]);
      return openAiError(400, `Unknown parameter: '${param}'.`, param, 'unknown_parameter');
    }
    const param = openAiParam(issue.path) || null;
    return openAiError(400, `Invalid '${param ?? 'body'}': ${issue.message}`, param, 'invalid_value');
  }
  const request = parsed.data;
  if (!profile.models.includes(request.model))
    return openAiError(404, `The model \`${request.model}\` does not exist or you do not have access to it.`, 'model', 'model_not_found');
  const text = typeof request.input === 'string' ? request.input : JSON.stringify(request.input);
  const state = words(text);
  const answers = request.questions.map((q) => openAiAnswer(q, state));
  const u = usage(text, answers.length, profile, false);
  return {
    status: 200,
    body: {
      model: request.model,
      answers,
      usage: {
        input_tokens: u.input_tokens,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: u.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: u.input_tokens + u.output_tokens,
      },
    },
  };
}

function openAiAnswer(q: OpenAiQuestion, state: Set<string>) {
  const name = q.name ?? null;
  const instructions = typeof q.instructions === 'string' ? q.instructions : JSON.stringify(q.instructions);
  if (q.type === 'predicate') return { type: 'predicate', name, probability: round2(0.1 + 0.8 * overlap(state, instructions)) };
  if (q.type === 'choice') {
    const p = softmax(
      q.choices.map((c) => overlap(state, `${String(c.value)} ${c.description ?? ''}`)),
      0.15,
    );
    const best = p.indexOf(Math.max(...p));
    return {
      type: 'choice',
      name,
      choice: q.choices[best]!.value,
      confidence: concentration(p),
      probabilities: q.choices.map((c, i) => ({ value: c.value, probability: round2(p[i]!) })),
    };
  }
  const p = softmax(
    q.levels.map((l) => overlap(state, `${l.label} ${l.description ?? ''}`)),
    0.15,
  );
  return {
    type: 'score',
    name,
    score: round2(p.reduce((s, pi, i) => s + i * pi, 0)),
    confidence: concentration(p),
    probabilities: q.levels.map((l, i) => ({ value: i, label: l.label, probability: round2(p[i]!) })),
  };
}
