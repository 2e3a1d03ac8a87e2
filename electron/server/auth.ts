import type { MiddlewareHandler } from 'hono';
import { FORBIDDEN_MANAGEMENT_MESSAGE } from '../../shared/contract/errors';
import type { Core } from '../core/core';
import { GatewayError } from '../core/errors';
import type { VerifiedKey } from '../core/keys/api-keys';

export type PublicEnv = { Variables: { apiKey: VerifiedKey; requestId: string } };

/** Bearer-key admission for the public API (spec section 5): the key, after its rate limit. */
export async function authenticate(core: Core, header: string | undefined): Promise<VerifiedKey> {
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
  core.apiKeys.admitRate(verified.id);
  return verified;
}

export function bearerAuth(core: Core): MiddlewareHandler<PublicEnv> {
  return async (c, next) => {
    c.set('apiKey', await authenticate(core, c.req.header('authorization')));
    await next();
  };
}

export function requireManagement(key: VerifiedKey): void {
  if (key.kind !== 'management') throw new GatewayError('forbidden', FORBIDDEN_MANAGEMENT_MESSAGE);
}
