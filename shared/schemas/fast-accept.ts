import type { DecisionsRequest } from './decisions-request';
import type { DecisionsResponse } from './decisions-response';
import { MAX_SESSION_ID_LENGTH, MAX_USER_LENGTH } from './decisions-request';

/**
 * Quick acceptance of plainly valid Decisions requests and responses, for the hot path. Each
 * guard answers true only for a value its zod schema accepts *unchanged* (no key it would strip,
 * nothing it would fill in); for anything else, valid or not, it answers false and the value goes
 * to the zod schema, which remains the one definition of what is valid and the source of every
 * error message. Property tests (fast-accept.test.ts) hold the guards to that.
 */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
/** A key JSON.parse gives as an own property but an object literal copy would turn into a prototype. */
const hasProtoKey = (v: Json) => Object.prototype.hasOwnProperty.call(v, '__proto__');
/** Guidance and state: text, a JSON object or a JSON array (zod copies the container; contents pass as they are). */
const isGuidance = (v: unknown): boolean => typeof v === 'string' || Array.isArray(v) || (isRecord(v) && !hasProtoKey(v));
const isProbability = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= 1;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isNonNegative = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Every own key of `v` is one of `allowed`. */
function onlyKeys(v: Json, allowed: readonly string[]): boolean {
  for (const key in v) if (!allowed.includes(key)) return false;
  return true;
}

/** A record whose keys pass `key` and values pass `value`, with at least `min` entries. */
function isRecordOf(v: unknown, key: (k: string) => boolean, value: (x: unknown) => boolean, min = 0): boolean {
  if (!isRecord(v) || hasProtoKey(v)) return false;
  let n = 0;
  for (const k in v) {
    if (!key(k) || !value(v[k])) return false;
    n += 1;
  }
  return n >= min;
}

const anyKey = () => true;
const nonEmptyKey = (k: string) => k.length > 0;
const digitsKey = (k: string) => /^\d+$/.test(k);
const QUESTION_KEYS = ['type', 'instructions', 'criteria'] as const;
const BOX_QUESTION_KEYS = ['type', 'instructions'] as const;

function isQuestion(v: unknown): boolean {
  if (!isRecord(v) || !isGuidance(v['instructions'])) return false;
  switch (v['type']) {
    case 'noul': {
      const criteria = v['criteria'];
      if (!onlyKeys(v, QUESTION_KEYS)) return false;
      if (criteria === undefined) return !('criteria' in v);
      return isRecord(criteria) && onlyKeys(criteria, ['true', 'false']) && isGuidance(criteria['true']) && isGuidance(criteria['false']);
    }
    case 'choice':
      return onlyKeys(v, QUESTION_KEYS) && isRecordOf(v['criteria'], nonEmptyKey, (g) => g === null || isGuidance(g), 1);
    case 'score': {
      const criteria = v['criteria'];
      return onlyKeys(v, QUESTION_KEYS) && Array.isArray(criteria) && criteria.length >= 1 && criteria.every(isGuidance);
    }
    case 'box':
      return onlyKeys(v, BOX_QUESTION_KEYS);
    default:
      return false;
  }
}

const REQUEST_KEYS = ['model', 'state', 'questions', 'session_id', 'user'] as const;

/** A request with model, state, questions and at most session_id and user (routing preferences and trace go to zod). */
export function isPlainDecisionsRequest(v: unknown): v is DecisionsRequest {
  if (!isRecord(v) || !onlyKeys(v, REQUEST_KEYS)) return false;
  const { model, state, questions, session_id: sessionId, user } = v;
  if (typeof model !== 'string' || model.length === 0 || !isGuidance(state)) return false;
  if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.length > MAX_SESSION_ID_LENGTH)) return false;
  if (user !== undefined && (typeof user !== 'string' || user.length > MAX_USER_LENGTH)) return false;
  return isRecordOf(questions, nonEmptyKey, isQuestion, 1);
}

const isProbabilities = (v: unknown, key: (k: string) => boolean) => v === undefined || isRecordOf(v, key, isProbability);

function isAnswer(v: unknown): boolean {
  if (!isRecord(v)) return false;
  const confidence = v['confidence'];
  if (confidence !== undefined && !isProbability(confidence)) return false;
  switch (v['type']) {
    case 'noul':
      return onlyKeys(v, ['type', 'noul']) && isProbability(v['noul']);
    case 'choice':
      return onlyKeys(v, ['type', 'choice', 'confidence', 'probabilities']) && typeof v['choice'] === 'string' && isProbabilities(v['probabilities'], anyKey);
    case 'score':
      return (
        onlyKeys(v, ['type', 'score', 'confidence', 'probabilities', 'legend']) &&
        isNonNegative(v['score']) &&
        isProbabilities(v['probabilities'], digitsKey) &&
        (v['legend'] === undefined || isRecordOf(v['legend'], digitsKey, isGuidance))
      );
    case 'box': {
      const box = v['box'];
      if (!onlyKeys(v, ['type', 'box', 'confidence']) || !isRecord(box) || !onlyKeys(box, ['top', 'bottom', 'left', 'right'])) return false;
      const { top, bottom, left, right } = box;
      return isProbability(top) && isProbability(bottom) && isProbability(left) && isProbability(right) && top < bottom && left < right;
    }
    default:
      return false;
  }
}

/** A Decisions response with nothing zod would strip. */
export function isPlainDecisionsResponse(v: unknown): v is DecisionsResponse {
  if (!isRecord(v) || !onlyKeys(v, ['answers', 'model', 'id', 'provider', 'usage'])) return false;
  const { answers, model, id, provider, usage } = v;
  if (typeof model !== 'string' || (id !== undefined && typeof id !== 'string') || (provider !== undefined && typeof provider !== 'string')) return false;
  if (!isRecord(usage) || !onlyKeys(usage, ['input_tokens', 'output_tokens', 'cost'])) return false;
  if (!isCount(usage['input_tokens']) || !isCount(usage['output_tokens']) || (usage['cost'] !== undefined && !isNonNegative(usage['cost']))) return false;
  return isRecordOf(answers, anyKey, isAnswer);
}
