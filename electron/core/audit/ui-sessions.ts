import { hash, randomBytes } from 'node:crypto';
import type { AuditActor, UiSession } from '../../../shared/schemas/audit';
import { FORBIDDEN_MANAGEMENT_MESSAGE } from '../../../shared/contract/errors';
import type { Clock } from '../clock';
import { GatewayError } from '../errors';
import type { ApiKeys } from '../keys/api-keys';
import type { SessionStorage } from '../store/ports';

/** How long a sign-in lasts unless the person signs out or the key is revoked. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

const tokenHash = (token: string): Buffer => hash('sha256', token, 'buffer');

/** A session that passed: who it is, for the audit log and the UI. */
export interface ActiveSession {
  actor: Extract<AuditActor, { kind: 'management_key' }>;
  session: UiSession;
}

/**
 * The web UI's sign-ins with a management key. The browser holds a random token in an HttpOnly
 * cookie; the store holds only its SHA-256, the key's id and when it ends, so every instance on the
 * same database knows it. The key itself is checked once, at sign-in, and never kept; the key's
 * state is read from the store on each request, so a revoked key's sessions stop at their next
 * request on every instance.
 */
export class UiSessions {
  constructor(
    private readonly storage: SessionStorage,
    private readonly keys: ApiKeys,
    private readonly clock: Clock,
    private readonly lifetimeMs = SESSION_LIFETIME_MS,
  ) {}

  /** Checks the key and opens a session: the token for the cookie (shown nowhere else), and who signed in. */
  async signIn(presented: string): Promise<{ token: string; active: ActiveSession }> {
    const found = await this.keys.identify(presented.trim());
    if (found.state === 'unknown') throw new GatewayError('unauthorized', 'That is not a Verdict key of this server; check that you pasted the whole key');
    const { info } = found;
    if (found.state === 'revoked')
      throw new GatewayError('unauthorized', `Key ${info.label} "${info.name}" was revoked (${info.revoked_at}); ask for a new management key`);
    if (info.kind !== 'management')
      throw new GatewayError('forbidden', `${FORBIDDEN_MANAGEMENT_MESSAGE}: key "${info.name}" is a standard key; sign in with a management key`);
    const now = this.clock.now();
    // Sessions that ended are cleared now and then, here rather than on a timer every instance would run.
    await this.storage.removeExpired(new Date(now).toISOString());
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(now + this.lifetimeMs).toISOString();
    await this.storage.add({ tokenHash: tokenHash(token), keyId: info.id, created_at: new Date(now).toISOString(), expires_at: expires });
    return { token, active: activeOf(info, expires) };
  }

  /** The session a cookie's token names, or why it no longer works (null: none was ever made with it). */
  async check(token: string): Promise<ActiveSession | { ended: string } | null> {
    const stored = await this.storage.get(tokenHash(token));
    if (!stored) return null;
    if (Date.parse(stored.expires_at) <= this.clock.now()) return { ended: 'Your sign-in has expired; sign in again with your management key' };
    const key = await this.keys.stored(stored.keyId);
    // Kept until it expires (then cleared at a sign-in), so every later request is told why, not just the first.
    if (!key || key.revoked_at) return { ended: `Key "${key?.name ?? stored.keyId}" you signed in with was revoked; sign in with another management key` };
    return activeOf(key, stored.expires_at);
  }

  /** Ends the session (signing out); a token that names none changes nothing. */
  async signOut(token: string): Promise<void> {
    await this.storage.remove(tokenHash(token));
  }
}

function activeOf(info: { id: string; name: string }, expires: string): ActiveSession {
  return {
    actor: { kind: 'management_key', key_id: info.id, key_name: info.name },
    session: { kind: 'management_key', key_id: info.id, key_name: info.name, expires_at: expires },
  };
}
