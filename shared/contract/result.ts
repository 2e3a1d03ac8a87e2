import { z } from 'zod';
import { ErrorBodySchema, type ErrorBody } from '../schemas/error-envelope';

/** How an operation's outcome crosses IPC and the inspector's HTTP routes: errors as data. */
export type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** A failed operation; a host-level refusal (no session, body too large) may omit `ok`. */
export const FailureSchema = z.object({ ok: z.literal(false).optional(), error: ErrorBodySchema });

/** "questions.q1.criteria" style path of a zod issue; "(root)" for the whole value. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((part, index) => {
      if (typeof part === 'number') return `[${part}]`;
      const key = String(part);
      const plain = /^[A-Za-z_$][\w$]*$/.test(key);
      if (plain) return index === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join('');
}

export interface ValidationProblem {
  path: string;
  message: string;
}

/** One readable problem per zod issue, with the JSON path it concerns. */
export function describeIssues(error: z.ZodError): ValidationProblem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatIssuePath([...issue.path, key]),
        message: `unknown property "${key}" is not allowed here`,
      }));
    }
    if (issue.code === 'invalid_union' && 'errors' in issue && issue.errors.length > 0 && issue.message === 'Invalid input') {
      // The shapes the value is not even of the kind of (a string given where an object may go) say
      // nothing useful: the problems of the one shape it comes closest to do (an option not allowed).
      const wrongKind = (branch: z.core.$ZodIssue[]) => branch.every((i) => i.code === 'invalid_type' && i.path.length === 0);
      let closer = issue.errors.filter((branch) => !wrongKind(branch));
      // Of those, the shape the value got into (a field of an object) over one refused at its root.
      if (closer.length > 1) closer = closer.filter((branch) => branch.some((i) => i.path.length > 0));
      if (closer.length === 1) return describeIssues(new z.ZodError(closer[0]!.map((i) => ({ ...i, path: [...issue.path, ...i.path] }))));
      if (closer.length === 0) {
        const kinds = [
          ...new Set(issue.errors.flatMap((branch) => branch.map((i) => (i.code === 'invalid_type' ? i.expected : null)).filter((k) => k !== null))),
        ];
        return [{ path: formatIssuePath(issue.path), message: `expected ${kinds.join(' or ')}` }];
      }
      return [{ path: formatIssuePath(issue.path), message: 'does not match any allowed shape' }];
    }
    // A record's key refused: the key's own problem says why ("question names must not be empty").
    if (issue.code === 'invalid_key' && issue.issues.length > 0) return [{ path: formatIssuePath(issue.path), message: issue.issues[0]!.message }];
    return [{ path: formatIssuePath(issue.path), message: issue.message }];
  });
}

/** A single message naming every problem with its path, e.g. `provider.foo: unknown property ...`. */
export function summarizeIssues(error: z.ZodError, max = 5): string {
  const problems = describeIssues(error);
  const shown = problems.slice(0, max).map((p) => `${p.path}: ${p.message}`);
  const more = problems.length > max ? `; and ${problems.length - max} more` : '';
  return `${shown.join('; ')}${more}`;
}
