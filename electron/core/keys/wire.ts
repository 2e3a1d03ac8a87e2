/**
 * The keys domain, wired: API keys and their spend ledger, who is admitted (this process's limits, a
 * team's on Redis, or Redis with this instance's share while it is away), the audit log of changes,
 * key management and the web UI's sign-ins. Which admission a process has is chosen here, once.
 */
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { AuditLog } from '../audit/audit-log';
import { UiSessions } from '../audit/ui-sessions';
import type { Presence, Storage } from '../store/ports';
import { RedisAdmission } from '../store/redis/admission';
import type { Admission } from './admission/admission';
import { FallbackAdmission } from './admission/fallback';
import { LocalAdmission } from './admission/local';
import { SharedKeyAdmission } from './admission/shared';
import { ApiKeys } from './api-keys';
import { KeyManagement } from './key-management';
import { SpendLedger } from './spend-ledger';

/** An instance beats every 10 s; one not heard from for 30 s is gone. */
const BEAT_MS = 10_000;
const GONE_AFTER_MS = 30_000;

/** This instance among a team's: it beats, and knows how many are alive (itself at least) as of its last beat. */
async function startPresence(presence: Presence, instance: string): Promise<{ live: () => number; leave: () => Promise<void> }> {
  let live = 1;
  const beat = async () => {
    await presence.beat(instance);
    live = Math.max(1, await presence.live(GONE_AFTER_MS));
  };
  await beat();
  // Missed beats (the database away) leave the last count.
  const timer = setInterval(() => void beat().catch(() => undefined), BEAT_MS);
  timer.unref();
  return {
    live: () => live,
    leave: async () => {
      clearInterval(timer);
      await presence.leave(instance);
    },
  };
}

export interface KeysDeps {
  storage: Pick<Storage, 'keys' | 'sessions' | 'audit' | 'presence'>;
  clock: Clock;
  logger: Logger;
  /** This instance among a team's (host and data directory). */
  instance: string;
  options: {
    /** A `redis://` URL: keys with limits are admitted there. */
    readonly redis?: string | undefined;
    readonly redisTimeoutMs?: number | undefined;
    readonly redisFallback?: 'refuse' | 'local' | undefined;
    /** Commands that open the core without taking up runs (false) are not counted among a team's live instances. */
    readonly resumeEvaluations?: boolean | undefined;
    /** A hold on Redis outlives the longest request. */
    readonly timeouts?: { deadlineMs: number } | undefined;
  };
}

export interface Keys {
  /** The parts the core holds. */
  readonly parts: KeyParts;
  /** This instance leaves the team's live instances (before the storage closes). */
  leave(): Promise<void>;
  /** Closes the Redis connection (after the storage). */
  closeShared(): Promise<void>;
}

/** The keys' services the core holds (and hands to the hosts). */
export interface KeyParts {
  readonly apiKeys: ApiKeys;
  /** What each key spent, charged before each answer leaves. */
  readonly spend: SpendLedger;
  /** Who is admitted: each key's rate limit and credit (keys/admission/). */
  readonly admission: Admission;
  /** Who created, changed or revoked keys, limits, sets and datasets. */
  readonly audit: AuditLog;
  /** Creating, changing and revoking keys for a named actor, each change logged. */
  readonly keyManagement: KeyManagement;
  /** The web UI's sign-ins with a management key (browser mode). */
  readonly uiSessions: UiSessions;
}

/** Opened after the request log: opening it adds spend an earlier version left in it. */
export async function wireKeys(deps: KeysDeps): Promise<Keys> {
  const { storage, clock, logger, options } = deps;
  // A team's instances admit keys with limits on one Redis; a hold outlives the longest request.
  const shared = options.redis
    ? await RedisAdmission.open(options.redis, {
        leaseMs: (options.timeouts?.deadlineMs ?? 300_000) + 60_000,
        ...(options.redisTimeoutMs ? { commandTimeoutMs: options.redisTimeoutMs } : {}),
      })
    : null;
  if (shared && shared.settings.appendOnly === false)
    logger.warn(
      { redis: shared.where },
      'Redis keeps no append-only file (appendonly no): restarted, it forgets the holds of requests in flight, which may then overspend a credit limit; spend itself is rebuilt from the ledger',
    );
  // A key revoked or re-limited here is read again by every instance's next request on it.
  const apiKeys = await ApiKeys.open(storage.keys, clock, shared ? async (id) => void (await shared.bumpGeneration(id).catch(() => undefined)) : undefined);
  const spend = new SpendLedger(storage.keys, clock, (id) => apiKeys.row(id)?.spent);
  // Commands (keys, eval) open the core too, without taking up runs: they are not counted as live instances.
  const presence = storage.presence && options.resumeEvaluations !== false ? await startPresence(storage.presence, deps.instance) : null;
  // Who is admitted: this process's limits, a team's on Redis, or Redis with this instance's share while it is away.
  const admission = !shared
    ? await LocalAdmission.open(apiKeys, spend, storage.keys, clock)
    : presence && options.redisFallback === 'local'
      ? new FallbackAdmission(new SharedKeyAdmission(apiKeys, storage.keys, shared), presence.live, () => clock.now())
      : new SharedKeyAdmission(apiKeys, storage.keys, shared);
  const audit = new AuditLog(storage.audit, clock);
  return {
    parts: { apiKeys, spend, admission, audit, keyManagement: new KeyManagement(apiKeys, audit), uiSessions: new UiSessions(storage.sessions, apiKeys, clock) },
    leave: async () => presence?.leave(),
    closeShared: async () => shared?.close(),
  };
}
