import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { createGenerator } from 'ts-json-schema-generator';

/**
 * OpenAI's Decisions request as OpenAI's own SDK types it: a JSON Schema generated from
 * `openai` 7.55.0's `resources/decisions.d.ts` (`DecisionCreateParams`), closed to unknown keys as
 * the API is, then the rules its doc comments state ("Ask 1–400 questions", "Provide between 2
 * and 255 choices. Each choice must be unique.", typed choice values). Nothing here is our reading
 * of the shape: a request the SDK's types do not allow is refused. Errors use OpenAI's error object
 * and its wording for unknown, missing and mistyped parameters.
 */

const require = createRequire(import.meta.url);
let validate: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (validate) return validate;
  // The package's export map names its JavaScript; the type definitions sit beside each module.
  const types = join(dirname(require.resolve('openai/resources/decisions')), 'decisions.d.ts');
  const schema = createGenerator({
    path: types,
    type: 'DecisionCreateParams',
    skipTypeCheck: true,
    additionalProperties: false,
    topRef: true,
    expose: 'export',
  }).createSchema('DecisionCreateParams');
  validate = new Ajv({ allErrors: true, strict: false }).compile(schema as object);
  return validate;
}

/**
 * Generates the schema now (a TypeScript parse of the SDK's types, seconds on a busy machine), so
 * that a strict host started with it does not spend a request's time budget on it.
 */
export function prepareOpenAiRequestCheck(): void {
  validator();
}

export interface OpenAiRequestProblem {
  message: string;
  param: string | null;
  code: string;
}

/** `/questions/0/choices` as OpenAI names it: `questions[0].choices`. */
const paramOf = (pointer: string, extra?: string) =>
  [...pointer.split('/').slice(1), ...(extra ? [extra] : [])].reduce(
    (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
    '',
  );

function firstProblem(errors: readonly ErrorObject[]): OpenAiRequestProblem {
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown) {
    const param = paramOf(unknown.instancePath, (unknown.params as { additionalProperty: string }).additionalProperty);
    return { message: `Unknown parameter: '${param}'.`, param, code: 'unknown_parameter' };
  }
  const missing = errors.find((e) => e.keyword === 'required');
  if (missing) {
    const param = paramOf(missing.instancePath, (missing.params as { missingProperty: string }).missingProperty);
    return { message: `Missing required parameter: '${param}'.`, param, code: 'missing_required_parameter' };
  }
  const wrong = errors.find((e) => e.keyword === 'type') ?? errors[0]!;
  const param = paramOf(wrong.instancePath) || null;
  return {
    message: `Invalid value for '${param ?? 'body'}': ${wrong.message ?? 'not allowed'}.`,
    param,
    code: wrong.keyword === 'type' ? 'invalid_type' : 'invalid_value',
  };
}

/** Null when OpenAI would take the request; else the problem its error object names. */
export function openAiRequestCheck(body: unknown): OpenAiRequestProblem | null {
  const check = validator();
  if (!check(body)) return firstProblem(check.errors ?? []);
  const questions = (body as { questions: { choices?: { value: string | boolean }[] }[] }).questions;
  if (questions.length < 1 || questions.length > 400)
    return { message: `Invalid 'questions': ask between 1 and 400 questions, got ${questions.length}.`, param: 'questions', code: 'invalid_value' };
  for (const [i, q] of questions.entries()) {
    if (!q.choices) continue;
    if (q.choices.length < 2 || q.choices.length > 255)
      return {
        message: `Invalid 'questions[${i}].choices': provide between 2 and 255 choices, got ${q.choices.length}.`,
        param: `questions[${i}].choices`,
        code: 'invalid_value',
      };
    // Typed: "true" and true are distinct values.
    const values = q.choices.map((c) => `${typeof c.value}:${String(c.value)}`);
    if (new Set(values).size !== values.length)
      return { message: `Invalid 'questions[${i}].choices': each choice must be unique.`, param: `questions[${i}].choices`, code: 'invalid_value' };
  }
  return null;
}
