import type { z } from 'zod';
import { describeIssues, summarizeIssues } from '../../shared/contract/result';
import { GatewayError } from './errors';

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

/** Guidance (a string, or JSON) as prompt text. */
export const guidanceText = (g: unknown): string => (typeof g === 'string' ? g : JSON.stringify(g ?? ''));
