import type { Answer } from '../../../../shared/schemas/answer';
import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';
import type { Guidance } from '../../../../shared/schemas/guidance';
import type { OpenAiAnswer, OpenAiDecision, OpenAiDecisionRequest, OpenAiInputItem, OpenAiQuestion } from '../../../../shared/schemas/openai-decisions';
import type { Question } from '../../../../shared/schemas/question';
import { GatewayError } from '../../errors';
import { imageDataUrl } from '../../decisions/state';
import { RESERVED_KEY_MESSAGE } from '../../../../shared/schemas/key';

/**
 * The other direction of translate.ts: OpenAI's Decisions as Verdict serves them. A request in
 * OpenAI's shape becomes a spec request (answered by any model: a native host or a chat model by a
 * method), and its answers go back in OpenAI's shape, in question order, with each question's own
 * name and typed values.
 *
 * - `input` string → `state`; messages → the state's parts (their text, images and JSON), each
 *   labelled with its role when the input has more than the user's turn; tool calls and their
 *   outputs as text, an output matched to its call by `call_id`.
 * - `predicate` → `noul`; `choice` values → option names (a boolean is `true`/`false`, told apart
 *   from a string of the same text); `score` levels → criteria, level i being `label: description`.
 * - an unnamed question gets an internal name and is answered with `name: null`.
 */

export interface QuestionShape {
  /** The spec question's name. */
  key: string;
  /** The caller's name, null when it gave none. */
  name: string | null;
  type: OpenAiQuestion['type'];
  /** Choice values in the caller's order, with the option name each is asked as. */
  values?: { value: string | boolean; key: string }[];
  /** Score level labels, lowest first. */
  labels?: string[];
}

export interface FromOpenAi {
  request: DecisionsRequest;
  questions: QuestionShape[];
}

/** Resolves an image URL to a data URL (or refuses it, saying why). */
export type ImageResolver = (url: string, where: string) => Promise<string>;

const ROLE: Record<string, string> = { user: 'User', developer: 'Developer', system: 'System', assistant: 'Assistant' };

/** The spec request an OpenAI-shaped one asks, and what is needed to answer it back in its shape. */
export async function fromOpenAiRequest(body: OpenAiDecisionRequest, resolve: ImageResolver): Promise<FromOpenAi> {
  const questions = questionShapes(body.questions);
  const request: DecisionsRequest = {
    model: body.model,
    state: await stateOf(body.input, resolve),
    questions: Object.fromEntries(body.questions.map((q, i) => [questions[i]!.key, questionOf(q, questions[i]!, `questions[${i}]`)])),
    ...(body.safety_identifier ? { user: body.safety_identifier } : {}),
  };
  return { request, questions };
}

function questionShapes(questions: readonly OpenAiQuestion[]): QuestionShape[] {
  const named = new Set(questions.flatMap((q) => (q.name === undefined ? [] : [q.name])));
  let unnamed = 0;
  return questions.map((q, i) => {
    // A name becomes a key of the spec request's questions: `__proto__` cannot be one.
    if (q.name === '__proto__')
      throw new GatewayError('bad_request', `questions[${i}].name: ${RESERVED_KEY_MESSAGE}`, { metadata: { param: `questions[${i}].name` } });
    let key = q.name;
    while (key === undefined || (q.name === undefined && named.has(key))) key = `question ${(unnamed += 1)}`;
    if (q.name === undefined) named.add(key);
    const shape: QuestionShape = { key, name: q.name ?? null, type: q.type };
    if (q.type === 'choice') {
      const strings = new Set(q.choices.flatMap((c) => (typeof c.value === 'string' ? [c.value] : [])));
      // A boolean is asked as its text, unless a string of that text is a choice too.
      shape.values = q.choices.map((c) => ({
        value: c.value,
        // The empty string and `__proto__` are values like others, asked under a name an object can hold.
        key:
          typeof c.value === 'string'
            ? c.value === '' || c.value === '__proto__'
              ? JSON.stringify(c.value)
              : c.value
            : strings.has(String(c.value))
              ? `${c.value} (boolean)`
              : String(c.value),
      }));
    }
    if (q.type === 'score') shape.labels = q.levels.map((l) => l.label);
    return shape;
  });
}

function questionOf(q: OpenAiQuestion, shape: QuestionShape, where: string): Question {
  const instructions = guidanceOf(q.instructions, `${where}.instructions`);
  switch (q.type) {
    case 'predicate':
      return { type: 'noul', instructions };
    case 'choice':
      return { type: 'choice', instructions, criteria: Object.fromEntries(q.choices.map((c, i) => [shape.values![i]!.key, c.description ?? null])) };
    case 'score':
      return { type: 'score', instructions, criteria: q.levels.map((l) => (l.description ? `${l.label}: ${l.description}` : l.label)) };
  }
}

/** A question's instructions as guidance: text, or its JSON data; images belong in `input`. */
function guidanceOf(instructions: OpenAiQuestion['instructions'], where: string): Guidance {
  if (typeof instructions === 'string') return instructions;
  if (instructions.length === 1 && instructions[0]!.type === 'input_json') return instructions[0]!.data;
  return instructions
    .map((part, i) => {
      if (part.type === 'input_image')
        throw new GatewayError('bad_request', `${where}[${i}]: images in a question's instructions are not taken here; put the image in input`);
      return part.type === 'input_text' ? part.text : JSON.stringify(part.data);
    })
    .join('\n');
}

type StateItem = string | Record<string, unknown> | Record<string, unknown>[];

/** `input` as the spec's state: a string as it is; items as parts, in order. */
async function stateOf(input: OpenAiDecisionRequest['input'], resolve: ImageResolver): Promise<DecisionsRequest['state']> {
  if (typeof input === 'string') return input;
  // Roles are said only when there is more than the user's turn to tell apart.
  const labelled = input.some((item) => !('role' in item) || item.role !== 'user');
  const calls = new Set<string>();
  const state: StateItem[] = [];
  for (const [i, item] of input.entries()) state.push(...(await itemParts(item, `input[${i}]`, { labelled, calls, resolve })));
  return state;
}

async function itemParts(item: OpenAiInputItem, where: string, ctx: { labelled: boolean; calls: Set<string>; resolve: ImageResolver }): Promise<StateItem[]> {
  const say = (role: string, text: string) => (ctx.labelled ? `${role}: ${text}` : text);
  if ('role' in item) {
    const role = ROLE[item.role]!;
    if (typeof item.content === 'string') return [say(role, item.content)];
    const out: StateItem[] = [];
    for (const [j, part] of item.content.entries()) out.push(await partOf(part, `${where}.content[${j}]`, (text) => say(role, text), ctx.resolve));
    return out;
  }
  if (item.type === 'function_call' || item.type === 'custom_tool_call') {
    ctx.calls.add(item.call_id);
    const args = item.type === 'function_call' ? item.arguments : item.input;
    return [`Tool call ${item.name} (${item.call_id}): ${args}`];
  }
  if (!ctx.calls.has(item.call_id)) throw new GatewayError('bad_request', `${where}.call_id: no call with call_id "${item.call_id}" comes before this output`);
  if (typeof item.output === 'string') return [`Tool output (${item.call_id}): ${item.output}`];
  const out: StateItem[] = [];
  for (const [j, part] of item.output.entries())
    out.push(await partOf(part, `${where}.output[${j}]`, (text) => `Tool output (${item.call_id}): ${text}`, ctx.resolve));
  return out;
}

type Part =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_json'; data: Record<string, unknown> | Record<string, unknown>[] }
  | { type: 'output_text'; text: string }
  | { type: 'refusal'; refusal: string };

async function partOf(part: Part, where: string, say: (text: string) => string, resolve: ImageResolver): Promise<StateItem> {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return say(part.text);
    case 'refusal':
      return say(`(declined) ${part.refusal}`);
    case 'input_json':
      return part.data;
    case 'input_image': {
      const url = part.image_url.startsWith('data:') ? part.image_url : await resolve(part.image_url, `${where}.image_url`);
      // Checked here, in the caller's words (`input[0].content[1].image_url`), before it is a state's part.
      imageDataUrl(url, `${where}.image_url`);
      return { type: 'image_url', image_url: { url } };
    }
  }
}

/** What the answer needs from the outcome: the answers by spec name, the refused names, tokens. */
export interface AnsweredInSpec {
  model: string;
  answers: Readonly<Record<string, Answer>>;
  refused: readonly string[];
  usage: { input_tokens: number; output_tokens: number };
  tokens: { cachedInputTokens: number; cacheWriteTokens: number; reasoningTokens: number } | null;
}

/**
 * The answers back in OpenAI's shape, in question order. A choice or score answer whose host gave
 * no confidence gets the one measured here from its probabilities (1 − normalised entropy), since
 * the shape requires it; one whose host gave no probabilities cannot be said in this shape.
 */
export function toOpenAiDecision(from: FromOpenAi, answered: AnsweredInSpec, concentration: (p: readonly number[]) => number): OpenAiDecision {
  const answers = from.questions.map((q): OpenAiAnswer => {
    if (answered.refused.includes(q.key)) return { type: 'refusal', name: q.name };
    const answer = answered.answers[q.key];
    if (!answer) throw new GatewayError('bad_gateway', `questions.${q.key}: no answer came back for this question`);
    if (answer.type === 'noul') return { type: 'predicate', name: q.name, probability: answer.noul };
    // The answer, its confidence (the host's, else the one measured from the probabilities) and its probabilities.
    const measured = <const T extends object, P extends { probability: number }>(head: T, given: number | undefined, probabilities: P[]) => ({
      ...head,
      confidence: given ?? round(concentration(probabilities.map((x) => x.probability))),
      probabilities,
    });
    if (answer.type === 'choice') {
      const p = required(answer.probabilities, q);
      const chosen = q.values!.find((v) => v.key === answer.choice)!;
      const probabilities = q.values!.map((v) => ({ value: v.value, probability: p[v.key] ?? 0 }));
      return measured({ type: 'choice', name: q.name, choice: chosen.value }, answer.confidence, probabilities);
    }
    if (answer.type === 'score') {
      const p = required(answer.probabilities, q);
      const probabilities = q.labels!.map((label, i) => ({ value: i, label, probability: p[String(i)] ?? 0 }));
      return measured({ type: 'score', name: q.name, score: answer.score }, answer.confidence, probabilities);
    }
    throw new GatewayError('internal', `questions.${q.key}: a box answer has no place in OpenAI's shape`);
  });
  const { input_tokens: input, output_tokens: output } = answered.usage;
  return {
    model: answered.model,
    answers,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: answered.tokens?.cachedInputTokens ?? 0, cache_write_tokens: answered.tokens?.cacheWriteTokens ?? 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: answered.tokens?.reasoningTokens ?? 0 },
      total_tokens: input + output,
    },
  };
}

const round = (x: number) => Number(x.toFixed(6));

function required(probabilities: Readonly<Record<string, number>> | undefined, q: QuestionShape): Readonly<Record<string, number>> {
  if (!probabilities)
    throw new GatewayError(
      'bad_gateway',
      `questions.${q.key}: the model answered without probabilities, which OpenAI's shape requires; ask it at /api/v1/systemone or /api/alpha/decisions`,
    );
  return probabilities;
}
