import type { Redis as RedisClient } from 'ioredis';
import { SharedAdmissionUnavailable, type SharedAdmission, type SharedAdmissionAnswer, type SharedAdmissionAsk } from '../ports';
import { redactUrl } from '../redact';
import { ADMIT_SCRIPT, BUMP_SCRIPT, keysOf, SEED_SCRIPT, SETTLE_SCRIPT } from './admission-script';

/** USD in whole nano-dollars, the unit Redis counts money in (exact sums). */
const NANO = 1e9;
/** A worst case is held rounded up, a cost charged to the nearest nano-dollar. */
const holdOf = (usd: number) => Math.ceil(usd * NANO - 1e-6);
const chargeOf = (usd: number) => Math.round(usd * NANO);

export type AdmissionAsk = SharedAdmissionAsk;
export type Admission = SharedAdmissionAnswer;

export interface AdmissionOptions {
  /** The sliding window of the rate limit, ms (a minute). */
  windowMs?: number;
  /** How long a hold lives if its request is never settled (its instance died), ms. */
  leaseMs?: number;
  /** How long a key's state lives without a request, ms (then it is rebuilt from the ledger). */
  stateMs?: number;
  /** A command not answered in this long fails, ms: a stopped or frozen Redis never hangs a request. */
  commandTimeoutMs?: number;
  /** Key prefix; the version in it changes with the scripts' meaning. */
  prefix?: string;
  /**
   * How long opening may wait for Redis to answer, ms (10 s): a Redis that is starting, loading its
   * file or busy answers late at first, and each try is still held to the command timeout.
   */
  startTimeoutMs?: number;
}

/**
 * How long a settle waits for an admission of its key to go with (ms). Paired rounds on PostgreSQL
 * + Redis, docs/BENCHMARKS.md: sent at the end of the turn instead, a third of the settles found one.
 */
const SETTLE_WAIT_MS = 5;

/**
 * The most admissions, and the most settles riding them, one script call takes: a burst of one key
 * in one turn goes in several calls, each well within what Lua's `unpack` takes (about 8,000 values).
 */
const PER_CALL = 256;

/** A settle not yet sent: the request, its cost in nano-dollars, whether it held nothing, and who waits to hear it arrived. */
interface Owed {
  requestId: string;
  charge: number;
  unheld: boolean;
  arrived: (arrived: boolean) => void;
}

/** An admission asked in this turn, not yet sent. */
interface Waiting {
  ask: AdmissionAsk;
  resolve: (answer: Admission) => void;
  reject: (error: unknown) => void;
}

/** One request's answer in the admission script's reply, three numbers from `at` (admission-script.ts). */
function answerOf(reply: (number | string)[], at: number): Admission {
  const code = Number(reply[at]);
  const a = Number(reply[at + 1]);
  const b = Number(reply[at + 2]);
  if (code === 1) return { admitted: true, at: a };
  if (code === 0) return { admitted: false, reason: 'rate', retryAfterSeconds: a };
  if (code === -1) return { admitted: false, reason: 'credit', spent: a / NANO, held: b / NANO };
  if (code === -2) return { admitted: false, reason: 'changed', generation: a };
  return { admitted: false, reason: 'unknown_spend' };
}

/** Thrown when Redis does not answer (down, frozen, unreachable) within the command timeout. */
export const AdmissionUnavailable = SharedAdmissionUnavailable;

type Scripted = RedisClient & {
  verdictAdmitV3(rate: string, state: string, leases: string, holds: string, ...argv: (string | number)[]): Promise<number[]>;
  verdictSettleV1(state: string, holds: string, leases: string, ...argv: (string | number)[]): Promise<number>;
  verdictSeedV1(state: string, ...argv: (string | number)[]): Promise<string>;
  verdictBumpV1(state: string, ...argv: (string | number)[]): Promise<number>;
};

/** What a team needs of its Redis, as its INFO reports it; null where INFO does not say. */
export interface RedisSettings {
  evictionPolicy: string | null;
  /** Writes kept in an append-only file: a restarted Redis has the holds in flight. */
  appendOnly: boolean | null;
}

export function settingsOf(info: string): RedisSettings {
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? null;
  const aof = field('aof_enabled');
  return { evictionPolicy: field('maxmemory_policy'), appendOnly: aof === null ? null : aof === '1' };
}

/**
 * Rate limits and credit reservations shared by every instance of a team's server, in one Redis
 * round trip per admitted request (admission-script.ts). Settling is sent without waiting for it.
 * No offline queue and a command timeout: when Redis is away a request that needs a limit is
 * refused at once, not held.
 */
export class RedisAdmission implements SharedAdmission {
  private readonly windowMs: number;
  private readonly leaseMs: number;
  private readonly stateMs: number;
  private readonly prefix: string;

  private constructor(
    private readonly redis: Scripted,
    /** The settles' connection (pipelined). */
    private readonly settler: Scripted,
    options: AdmissionOptions,
    readonly where: string,
    /** What Redis said of itself at start (the server logs a warning without an append-only file). */
    readonly settings: RedisSettings,
  ) {
    this.windowMs = options.windowMs ?? 60_000;
    this.leaseMs = options.leaseMs ?? 10 * 60_000;
    this.stateMs = options.stateMs ?? 7 * 86_400_000;
    this.prefix = options.prefix ?? 'verdict:v1';
  }

  static async open(url: string, options: AdmissionOptions = {}): Promise<RedisAdmission> {
    // Loaded only when Redis is named.
    const { Redis } = await import('ioredis');
    const timeout = options.commandTimeoutMs ?? 150;
    const client = (pipelined: boolean) => {
      const c = new Redis(url, {
        enableOfflineQueue: false,
        enableAutoPipelining: pipelined,
        commandTimeout: timeout,
        connectTimeout: Math.max(1000, timeout),
        maxRetriesPerRequest: 0,
        // Reconnect quickly and keep trying: back within seconds of Redis returning.
        retryStrategy: (times) => Math.min(times * 100, 1000),
        lazyConnect: true,
      }) as Scripted;
      c.on('error', () => {});
      c.defineCommand('verdictAdmitV3', { numberOfKeys: 4, lua: ADMIT_SCRIPT });
      c.defineCommand('verdictSettleV1', { numberOfKeys: 3, lua: SETTLE_SCRIPT });
      c.defineCommand('verdictSeedV1', { numberOfKeys: 1, lua: SEED_SCRIPT });
      c.defineCommand('verdictBumpV1', { numberOfKeys: 1, lua: BUMP_SCRIPT });
      return c;
    };
    // Admissions one command each, so a Redis that does not answer refuses within one command timeout
    // (pipelined, ioredis took two); settles, which nobody waits for, go out pipelined: the settles of
    // one turn of the event loop in one write.
    const where = `Redis at ${redactUrl(url)}`;
    const until = Date.now() + (options.startTimeoutMs ?? 10_000);
    let redis: Scripted;
    let settler: Scripted;
    let settings: RedisSettings;
    // A connection's handshake is held to the command timeout too, and one answered late closes it
    // ("Connection is closed."): at start, a slow first answer is tried again on new connections.
    for (;;) {
      redis = client(false);
      settler = client(true);
      // ioredis says only "Connection is closed." when the handshake failed; the reason came as an event.
      let reason: Error | null = null;
      for (const c of [redis, settler]) c.on('error', (e: Error) => (reason = e));
      try {
        await Promise.all([redis.connect(), settler.connect()]);
        settings = settingsOf(await redis.info());
        break;
      } catch (error) {
        redis.disconnect();
        settler.disconnect();
        const why = reason ?? (error as Error);
        // A refused password is not late: it is said at once.
        if (/WRONGPASS|NOAUTH|NOPERM/.test(why.message)) throw new Error(`${where} refused the connection: ${why.message}`, { cause: why });
        if (Date.now() >= until) throw new Error(`${where} did not answer at start: ${why.message}`, { cause: why });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    // Evicted, a key's request log and holds would be forgotten and its limits let more through.
    if (settings.evictionPolicy !== null && settings.evictionPolicy !== 'noeviction') {
      redis.disconnect();
      settler.disconnect();
      throw new Error(
        `${where} may evict keys (maxmemory-policy ${settings.evictionPolicy}): limits kept there would forget requests and holds. Set maxmemory-policy noeviction.`,
      );
    }
    return new RedisAdmission(redis, settler, options, where, settings);
  }

  /**
   * Checks the key's generation, its rate limit and its credit for the request's worst case, and
   * holds it. The admissions of one key asked in one turn of the event loop go in one command, with
   * the settles this instance owes on the key, applied first: one round trip for them all.
   */
  admit(ask: AdmissionAsk): Promise<Admission> {
    return new Promise((resolve, reject) => {
      const waiting: Waiting = { ask, resolve, reject };
      const list = this.asked.get(ask.keyId);
      if (list) list.push(waiting);
      else this.asked.set(ask.keyId, [waiting]);
      if (this.askedSoon) return;
      this.askedSoon = true;
      setImmediate(() => this.sendAdmissions());
    });
  }

  /** Admissions of one key asked so far in this turn, by key. */
  private readonly asked = new Map<string, Waiting[]>();
  private askedSoon = false;

  /**
   * One command a key for the admissions asked in this turn (one per PER_CALL of them), all written at
   * once: the connection is corked while they are made. Each command keeps its own timeout, which
   * pipelining would not give (see `open`).
   */
  private sendAdmissions(): Promise<unknown> {
    this.askedSoon = false;
    const stream = this.redis.stream as { cork?: () => void; uncork?: () => void } | undefined;
    stream?.cork?.();
    try {
      const sent: Promise<unknown>[] = [];
      for (const [keyId, list] of this.asked)
        for (let from = 0; from < list.length; from += PER_CALL) sent.push(this.sendAdmissionsOf(keyId, list.slice(from, from + PER_CALL)));
      return Promise.allSettled(sent);
    } finally {
      this.asked.clear();
      stream?.uncork?.();
    }
  }

  private sendAdmissionsOf(keyId: string, list: Waiting[]): Promise<unknown> {
    const k = keysOf(keyId, this.prefix);
    // The settles owed on the key ride along, as many as a call takes; the rest wait for the next.
    const all = this.owed.get(keyId);
    const owed = all?.splice(0, PER_CALL);
    if (all?.length === 0) this.owed.delete(keyId);
    const argv: (string | number)[] = [this.windowMs, this.leaseMs, this.stateMs, list.length];
    for (const { ask } of list)
      argv.push(
        ask.generation,
        ask.rateLimitRpm ?? 0,
        ask.creditLimit === null ? -1 : Math.floor(ask.creditLimit * NANO + 1e-6),
        ask.creditLimit === null ? 0 : holdOf(Math.max(0, ask.worst)),
        ask.requestId,
      );
    for (const o of owed ?? []) argv.push(o.requestId, o.charge, o.unheld ? '1' : '0');
    const sent = this.call(() => this.redis.verdictAdmitV3(k.rate, k.state, k.leases, k.holds, ...argv));
    // A settle that rode an admission Redis did not answer may not have arrived: as with one sent alone.
    if (owed)
      void sent.then(
        () => owed.forEach((o) => o.arrived(true)),
        () => owed.forEach((o) => o.arrived(false)),
      );
    return sent.then(
      (reply) => list.forEach((w, i) => w.resolve(answerOf(reply, i * 3))),
      (error: unknown) => list.forEach((w) => w.reject(error)),
    );
  }

  /**
   * Gives the request's hold back and charges its real cost: not awaited. A request held nothing for
   * (its price unknown) is charged when `unheld` says so. It goes with the next admission of its key
   * made within SETTLE_WAIT_MS, else on its own then: a command less a request is less work for
   * this process and for Redis, and a hold given back a few milliseconds later errs only towards
   * refusing a request at the very edge of a key's credit, never towards letting one past it.
   * Resolves whether it arrived.
   */
  settle(keyId: string, requestId: string, costUsd: number, unheld = false): Promise<boolean> {
    return new Promise((arrived) => {
      const one: Owed = { requestId, charge: chargeOf(costUsd), unheld, arrived };
      const list = this.owed.get(keyId);
      if (list) list.push(one);
      else this.owed.set(keyId, [one]);
      if (this.owedSoon) return;
      this.owedSoon = true;
      setTimeout(() => void this.sendOwed(), SETTLE_WAIT_MS);
    });
  }

  /** The settles no admission took, each on its own (pipelined); resolves once each has arrived or not. */
  private sendOwed(): Promise<unknown> {
    this.owedSoon = false;
    const sent: Promise<void>[] = [];
    for (const [keyId, list] of this.owed) {
      const k = keysOf(keyId, this.prefix);
      for (const o of list)
        sent.push(
          this.settler.verdictSettleV1(k.state, k.holds, k.leases, o.requestId, o.charge, o.unheld ? '1' : '0', this.stateMs).then(
            () => o.arrived(true),
            () => o.arrived(false),
          ),
        );
    }
    this.owed.clear();
    return Promise.all(sent);
  }

  /** Puts a key's spend from the ledger into Redis, unless another instance did first; the spend Redis then has, USD. */
  async seedSpend(keyId: string, spentUsd: number): Promise<number> {
    const k = keysOf(keyId, this.prefix);
    return Number(await this.call(() => this.redis.verdictSeedV1(k.state, chargeOf(spentUsd), this.stateMs))) / NANO;
  }

  /** Moves a key's generation (revoked or limits changed): every instance's next request on it reloads the key. */
  async bumpGeneration(keyId: string): Promise<number> {
    const k = keysOf(keyId, this.prefix);
    return Number(await this.call(() => this.redis.verdictBumpV1(k.state, this.stateMs)));
  }

  /** What Redis holds for a key: spend, held, generation (for tests and the health page). */
  async state(keyId: string): Promise<{ spent: number | null; held: number; generation: number }> {
    const k = keysOf(keyId, this.prefix);
    const [spent, held, gen] = await this.call(() => this.redis.hmget(k.state, 'spent', 'held', 'gen'));
    return { spent: spent === null ? null : Number(spent) / NANO, held: Number(held ?? 0) / NANO, generation: Number(gen ?? 0) };
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping());
  }

  async close(): Promise<void> {
    // Admissions asked and settles still owed go out first (each held to the command timeout).
    await Promise.all([this.sendAdmissions(), this.sendOwed()]);
    this.redis.disconnect();
    this.settler.disconnect();
  }

  /** Settles owed by key, until an admission of the key takes them or SETTLE_WAIT_MS passes. */
  private readonly owed = new Map<string, Owed[]>();
  private owedSoon = false;

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new SharedAdmissionUnavailable(`Redis did not answer: ${(error as Error).message}`, { cause: error });
    }
  }
}
