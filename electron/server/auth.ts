import type { MiddlewareHandler } from 'hono';
import { FORBIDDEN_MANAGEMENT_MESSAGE } from '../../shared/contract/errors';
import type { AuditActor } from '../../shared/schemas/audit';
import { type Core, GatewayError, type VerifiedKey, SHAPES } from '../core';

export type PublicEnv = { Variables: { apiKey: VerifiedKey; requestId: string } };

/** Bearer-key admission for the public API (spec section 5): the key, after its rate limit (this process's; a shared one is checked later). */
export async function authenticate(core: Core, header: string | undefined, request: { requestId: string; atDecision: boolean }): Promise<VerifiedKey> {
  if (!header) {
    throw new GatewayError('unauthorized', 'Missing Authorization header; send "Authorization: Bearer <API key>"');
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new GatewayError('unauthorized', 'Malformed Authorization header; expected "Bearer <API key>"');
  }
  const verified = await core.apiKeys.verify(match[1]!);
  if (!verified) throw new GatewayError('unauthorized', 'Invalid or revoked API key');
  core.apiKeys.touch(verified.id);
  const admitted = core.admission.onRequest(verified.id, request.requestId, request.atDecision);
  if (admitted instanceof Promise) await admitted;
  return verified;
}

/** Routes whose requests a team's shared admission checks once the most they can cost is known (rate and credit in one round trip). */
const ADMITTED_AT_DECISION = new Set(SHAPES.map((shape) => `/api${shape.path}`));

export function bearerAuth(core: Core): MiddlewareHandler<PublicEnv> {
  return async (c, next) => {
    // Decisions routes are admitted at their decision (rate and credit together, where that is one round trip).
    const atDecision = c.req.method === 'POST' && ADMITTED_AT_DECISION.has(c.req.path);
    const key = await authenticate(core, c.req.header('authorization'), { requestId: c.get('requestId') ?? crypto.randomUUID(), atDecision });
    c.set('apiKey', key);
    await next();
  };
}

export function requireManagement(key: VerifiedKey): void {
  if (key.kind !== 'management') throw new GatewayError('forbidden', FORBIDDEN_MANAGEMENT_MESSAGE);
}

/** The bearer key as the actor of a management change: refused (403) unless it is a management key. */
export function managementActor(key: VerifiedKey): AuditActor {
  requireManagement(key);
  return { kind: 'management_key', key_id: key.id, key_name: key.name };
}
