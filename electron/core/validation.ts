import type { z } from 'zod';
import { describeIssues, formatIssuePath, summarizeIssues, type ValidationProblem } from '../../shared/contract/result';
import { RESERVED_KEY_MESSAGE } from '../../shared/schemas/key';
import { reservedKeyAt } from './json-depth';
import { GatewayError } from './errors';
import { unknownFields } from './unknown-fields';

/**
 * Parses a value at a trust boundary; a violation is a 400 whose message names each JSON path
 * ("Invalid <what>: path: problem; …") and whose metadata lists them.
 */
export function parseOrBadRequest<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new GatewayError('bad_request', `Invalid ${what}: ${summarizeIssues(parsed.error)}`, { metadata: { problems: describeIssues(parsed.error) } });
  }
  return parsed.data;
}

/**
 * As `parseOrBadRequest`, and a field the schema does not know, at any depth, is refused too (named,
 * with the field it was probably meant as) rather than dropped: management and inspector input,
 * where a misspelt `credit_limt` must not make an unlimited key.
 */
export function parseStrictOrBadRequest<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = parseOrBadRequest(schema, value, what);
  const unknown = unknownFields(value, parsed);
  if (unknown.length === 0) return parsed;
  const problems: ValidationProblem[] = unknown.map(({ path, suggestion }) => ({
    path: formatIssuePath(path),
    message: `unknown property "${String(path.at(-1))}" is not allowed here${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
  }));
  const shown = problems.slice(0, 5).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  throw new GatewayError('bad_request', `Invalid ${what}: ${shown.join('; ')}${more}`, { metadata: { problems } });
}

/** A 400 naming the first `__proto__` key in a parsed value. Looked for only where the text can hold one (cheap on a body of images). */
export function refuseReservedKeys(value: unknown, text?: string): void {
  if (text !== undefined && !text.includes('__proto__') && !text.includes('\\u')) return;
  const at = reservedKeyAt(value);
  if (!at) return;
  const path = formatIssuePath(at);
  throw new GatewayError('bad_request', `${path}: ${RESERVED_KEY_MESSAGE}`, { metadata: { problems: [{ path, message: RESERVED_KEY_MESSAGE }] } });
}

/** Guidance (a string, or JSON) as prompt text. */
export const guidanceText = (g: unknown): string => (typeof g === 'string' ? g : JSON.stringify(g ?? ''));
