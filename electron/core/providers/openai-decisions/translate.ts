import type { Guidance } from '../../../../shared/schemas/guidance';
import type { OpenAiDecisionReply } from '../../../../shared/schemas/openai-decisions';
import type { Question } from '../../../../shared/schemas/question';
import type { Answer } from '../../../../shared/schemas/answer';
import type { ContentPart, NativeAnswer, NativeAsk } from '../types';
import { foldCriteria } from '../fold-criteria';

/**
 * Between the spec's Decisions (System One: `state` + named questions, answers by name) and
 * OpenAI's (`input` + ordered questions, answers in question order):
 *
 * | spec | OpenAI |
 * |---|---|
 * | `noul` (+ `criteria {true, false}`) | `predicate`; criteria folded into the instructions, since the shape has none and refuses unknown keys |
 * | `choice` criteria `{name: guidance}` | `choices [{value: name, description}]` |
 * | `score` criteria `[guidance]` | `levels [{label: "i", description}]` (the level's index as its label) |
 * | answers by name | answers in question order, each with its `name` |
 * | `probabilities {name: p}`, score keys "i" | `probabilities [{value, probability}]`, score `value` = i |
 * | — | `refusal` per question |
 *
 * Numbers are carried over as they are, never recomputed or rounded again.
 */

type OpenAiInputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_json'; data: Record<string, unknown> | Record<string, unknown>[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isJsonData = (v: unknown): v is Record<string, unknown> | Record<string, unknown>[] =>
  isObject(v) || (Array.isArray(v) && v.length > 0 && v.every(isObject));

/** Guidance as text: a string as it is, anything else as its JSON. */
export const guidanceAsText = (g: Guidance | null | undefined): string => (typeof g === 'string' ? g : JSON.stringify(g));

/** Instructions as OpenAI takes them: text, or JSON data as an `input_json` part. */
function instructionsOf(g: Guidance): string | OpenAiInputPart[] {
  return typeof g === 'string' ? g : isJsonData(g) ? [{ type: 'input_json', data: g }] : JSON.stringify(g);
}

/** One part of the state: text, an image (as the data URL of what will be judged), or JSON. */
function inputPart(item: unknown, part: ContentPart | undefined): OpenAiInputPart {
  if (part?.type === 'image') return { type: 'input_image', image_url: `data:${part.mediaType};base64,${part.base64}` };
  if (isObject(item) && item['type'] === 'text' && typeof item['text'] === 'string') return { type: 'input_text', text: item['text'] };
  if (typeof item === 'string') return { type: 'input_text', text: item };
  return isJsonData(item) ? { type: 'input_json', data: item } : { type: 'input_text', text: JSON.stringify(item) };
}

/** The state as OpenAI's `input`: a string as it is; anything else as one user message of parts. */
export function openAiInput(ask: NativeAsk): string | { role: 'user'; content: OpenAiInputPart[] }[] {
  const { state } = ask;
  if (typeof state === 'string' && ask.assets.length === 0) return state;
  // An array state maps item by item onto its parts (stateParts keeps one part per item).
  const content = Array.isArray(state) ? state.map((item, i) => inputPart(item, ask.parts[i])) : [inputPart(state, undefined)];
  // Images sent once under a name follow the state, each after its name.
  for (const { key, image } of ask.assets) content.push({ type: 'input_text', text: `Image \`${key}\`:` }, inputPart(null, image));
  return [{ role: 'user', content }];
}

/** One spec question as an OpenAI question, named as the caller named it. */
export function openAiQuestion(name: string, question: Question): Record<string, unknown> {
  switch (question.type) {
    case 'noul': {
      if (!question.criteria) return { type: 'predicate', name, instructions: instructionsOf(question.instructions) };
      return { type: 'predicate', name, instructions: foldCriteria(question.instructions, question.criteria.true, question.criteria.false) };
    }
    case 'choice':
      return {
        type: 'choice',
        name,
        instructions: instructionsOf(question.instructions),
        choices: Object.entries(question.criteria).map(([value, d]) => (d === null || d === undefined ? { value } : { value, description: guidanceAsText(d) })),
      };
    case 'score':
      return {
        type: 'score',
        name,
        instructions: instructionsOf(question.instructions),
        levels: question.criteria.map((d, i) => ({ label: String(i), description: guidanceAsText(d) })),
      };
    case 'box':
      // Host rows list the types they answer, so routing never sends a box here.
      throw new Error('OpenAI Decisions have no box question');
  }
}

/**
 * A reply's answers by the caller's question names. A reply whose answers do not match the
 * questions one for one (a name not asked, one asked twice or left out, an answer of another type,
 * a choice value or level not offered) throws with what is wrong: the host broke its own contract.
 */
export function answersFromOpenAi(questions: Readonly<Record<string, Question>>, reply: OpenAiDecisionReply): Record<string, NativeAnswer> {
  const names = Object.keys(questions);
  if (reply.answers.length !== names.length) throw new Error(`${reply.answers.length} answers to ${names.length} questions`);
  const out: Record<string, NativeAnswer> = {};
  reply.answers.forEach((answer, i) => {
    // Answers come in question order; a name, when given, must be the question's at that place.
    const name = answer.name ?? names[i]!;
    if (name !== names[i]) throw new Error(`answer ${i + 1} is named "${name}", question ${i + 1} is "${names[i]}"`);
    out[name] = answerFromOpenAi(name, questions[name]!, answer);
  });
  return out;
}

function answerFromOpenAi(name: string, question: Question, answer: OpenAiDecisionReply['answers'][number]): NativeAnswer {
  if (answer.type === 'refusal') return { type: 'refusal' };
  const expected = question.type === 'noul' ? 'predicate' : question.type;
  if (answer.type !== expected) throw new Error(`the answer to "${name}" is a ${answer.type}, not a ${expected}`);
  if (answer.type === 'predicate') return { type: 'noul', noul: answer.probability };
  if (answer.type === 'choice' && question.type === 'choice') {
    const value = answer.choice;
    if (typeof value !== 'string') throw new Error(`"${name}": the choice ${JSON.stringify(value)} is not one of the string values asked`);
    const probabilities: Record<string, number> = {};
    for (const p of answer.probabilities) {
      if (typeof p.value !== 'string' || !(p.value in question.criteria))
        throw new Error(`"${name}": a probability for ${JSON.stringify(p.value)}, which is not a choice asked`);
      if (p.value in probabilities) throw new Error(`"${name}": two probabilities for "${p.value}"`);
      probabilities[p.value] = p.probability;
    }
    return { type: 'choice', choice: value, ...(answer.confidence !== undefined ? { confidence: answer.confidence } : {}), probabilities };
  }
  if (answer.type === 'score' && question.type === 'score') {
    const probabilities: Record<string, number> = {};
    for (const p of answer.probabilities) {
      if (p.value >= question.criteria.length)
        throw new Error(`"${name}": a probability for level ${p.value}, beyond the ${question.criteria.length} levels asked`);
      if (String(p.value) in probabilities) throw new Error(`"${name}": two probabilities for level ${p.value}`);
      probabilities[String(p.value)] = p.probability;
    }
    const score: Answer = {
      type: 'score',
      score: answer.score,
      ...(answer.confidence !== undefined ? { confidence: answer.confidence } : {}),
      probabilities,
      // The spec's legend is the caller's criteria, echoed (OpenAI's answer carries labels instead).
      legend: Object.fromEntries(question.criteria.map((c, i) => [String(i), c])),
    };
    return score;
  }
  throw new Error(`the answer to "${name}" does not fit its question`);
}
