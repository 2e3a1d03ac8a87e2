import { randomUUID } from 'node:crypto';
import { keyValues } from '../key-rows';
import type { ApiKeyRecord, KeyRequest, KeyStorage } from '../ports';
import { FlushTimer } from '../../flush-timer';
import { PgChangeToken } from './change-token';
import { TickBatch, type PgDatabase } from './database';
import { CHANNELS } from './migrations';

// pg returns each column as the port's record has it (bytea as a Buffer, double precision as a number).
/** A key's spend: its row's (charged before the ledger), plus what its ledger holds. */
const COLUMNS =
  'id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent + COALESCE((SELECT SUM(l.usd) FROM spend_ledger l WHERE l.key_id = api_keys.id), 0) AS spent';

type Write = { charge: { id: string; usd: number; requestId: string; at: number } } | { note: KeyRequest } | { forget: number };

/** A ledger row's UTC day (\`at\` is ms since the epoch), as the days table names them. */
const DAY_OF_AT = "to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";

/** Ledger rows are kept this long (a charge written again within it counts once), then folded into their keys' rows. */
const LEDGER_KEPT_MS = 60 * 60_000;
const FOLD_EVERY_MS = 10 * 60_000;

/** Usage stamps nobody was promised are written this often at the latest. */
const STAMP_DELAY_MS = 250;

/** The keys domain's tables in Postgres. Charges and request starts of one event-loop turn share one transaction of at most three statements. */
export class PgKeyStore implements KeyStorage {
  private readonly writes: TickBatch<Write>;
  private stamps = new Map<string, string>();
  private readonly stampTimer = new FlushTimer(STAMP_DELAY_MS, () => void this.writeStamps());

  private constructor(
    private readonly db: PgDatabase,
    private readonly token: PgChangeToken,
  ) {
    this.writes = new TickBatch((items) => this.commit(items));
  }

  static async open(db: PgDatabase): Promise<PgKeyStore> {
    const store = new PgKeyStore(db, await PgChangeToken.on(db, CHANNELS.keys));
    // The ledger is folded into the keys' rows now and then, so reading a key's spend stays a short sum.
    const folding = setInterval(() => void store.foldLedger(Date.now() - LEDGER_KEPT_MS).catch(() => undefined), FOLD_EVERY_MS);
    folding.unref();
    return store;
  }

  /**
   * Moves ledger rows older than `before` (ms since the epoch) into their keys' rows, in one
   * transaction (a key's spend reads the same before and after), by one instance at a time. Kept
   * rows still make a charge written twice count once; a request's charge is written within seconds,
   * so rows an hour old are folded safely. How many rows were folded.
   */
  async foldLedger(before: number): Promise<number> {
    return this.db.transaction(async (client) => {
      const locked = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', ['spend_ledger fold']);
      if (!locked.rows[0]?.ok) return 0;
      const folded = await client.query(
        `WITH gone AS (DELETE FROM spend_ledger WHERE at < $1 RETURNING key_id, usd, at),
              days AS (
                INSERT INTO key_spend_days (key_id, day, usd)
                SELECT key_id, ${DAY_OF_AT}, SUM(usd) FROM gone GROUP BY 1, 2
                ON CONFLICT (key_id, day) DO UPDATE SET usd = key_spend_days.usd + excluded.usd
              ),
              sums AS (SELECT key_id, SUM(usd) AS usd, count(*) AS n FROM gone GROUP BY key_id)
         UPDATE api_keys k SET spent = k.spent + sums.usd FROM sums WHERE k.id = sums.key_id RETURNING sums.n`,
        [before],
      );
      return folded.rows.reduce((n, r: { n: string }) => n + Number(r.n), 0);
    });
  }

  async all(): Promise<ApiKeyRecord[]> {
    return this.db.query<ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`);
  }

  async add(key: ApiKeyRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO api_keys (id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
      keyValues(key),
    );
    this.token.moved();
  }

  async addFirst(key: ApiKeyRecord): Promise<boolean> {
    // Instances starting together on an empty database: the lock lets one look and insert at a time.
    const added = await this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['api_keys first key']);
      const result = await client.query(
        `INSERT INTO api_keys (id, name, kind, hash, label, created_at, revoked_at, last_used_at, credit_limit, rate_limit_rpm, spent)
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 WHERE NOT EXISTS (SELECT 1 FROM api_keys)`,
        keyValues(key),
      );
      return (result.rowCount ?? 0) > 0;
    });
    if (added) this.token.moved();
    return added;
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    return (await this.db.query<ApiKeyRecord>(`SELECT ${COLUMNS} FROM api_keys WHERE id = $1`, [id]))[0];
  }

  async setLimits(id: string, limits: { credit_limit: number | null; rate_limit_rpm: number | null }): Promise<ApiKeyRecord | undefined> {
    // One statement: the row as it is after (the trigger's notice tells the other instances).
    const rows = await this.db.query<ApiKeyRecord>(
      `WITH changed AS (UPDATE api_keys SET credit_limit = $2, rate_limit_rpm = $3 WHERE id = $1 RETURNING id, credit_limit, rate_limit_rpm)
       SELECT ${COLUMNS.replace('credit_limit, rate_limit_rpm,', '(SELECT credit_limit FROM changed) AS credit_limit, (SELECT rate_limit_rpm FROM changed) AS rate_limit_rpm,')} FROM api_keys WHERE id = $1`,
      [id, limits.credit_limit, limits.rate_limit_rpm],
    );
    this.token.moved();
    return rows[0];
  }

  async revoke(id: string, at: string): Promise<ApiKeyRecord | undefined> {
    // One statement: the row as it is after, revoked now or before.
    const rows = await this.db.query<ApiKeyRecord>(
      `WITH changed AS (UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING id, revoked_at)
       SELECT ${COLUMNS.replace('revoked_at,', 'COALESCE((SELECT revoked_at FROM changed), revoked_at) AS revoked_at,')} FROM api_keys WHERE id = $1`,
      [id, at],
    );
    this.token.moved();
    return rows[0];
  }

  charge(id: string, usd: number, requestId: string = `charge-${randomUUID()}`): Promise<void> {
    return this.writes.add({ charge: { id, usd, requestId, at: Date.now() } });
  }

  async addSpendDays(id: string, days: ReadonlyMap<string, number>): Promise<void> {
    if (days.size === 0) return;
    await this.db.query(
      `INSERT INTO key_spend_days (key_id, day, usd) SELECT $1, d, u FROM unnest($2::text[], $3::float8[]) AS t (d, u)
       ON CONFLICT (key_id, day) DO UPDATE SET usd = key_spend_days.usd + excluded.usd`,
      [id, [...days.keys()], [...days.values()]],
    );
  }

  async spendByDay(id: string, fromDay: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ day: string; usd: number }>(
      `SELECT day, SUM(usd)::float8 AS usd FROM (
         SELECT day, usd FROM key_spend_days WHERE key_id = $1 AND day >= $2
         UNION ALL SELECT ${DAY_OF_AT} AS day, usd FROM spend_ledger WHERE key_id = $1
       ) spent WHERE day >= $2 GROUP BY day`,
      [id, fromDay],
    );
    return new Map(rows.map((r) => [r.day, Number(r.usd)]));
  }

  noteRequest(request: KeyRequest): void {
    this.writes.addSoon({ note: request });
  }

  forgetRequests(upTo: number): void {
    this.writes.addSoon({ forget: upTo });
  }

  private async commit(items: Write[]): Promise<void> {
    // By request: a request charged twice in one turn is one ledger row with both amounts.
    const charged = new Map<string, { id: string; usd: number; at: number }>();
    const notes: KeyRequest[] = [];
    let forget: number | null = null;
    for (const item of items) {
      if ('charge' in item) {
        const earlier = charged.get(item.charge.requestId);
        charged.set(item.charge.requestId, { id: item.charge.id, usd: (earlier?.usd ?? 0) + item.charge.usd, at: item.charge.at });
      } else if ('note' in item) notes.push(item.note);
      else forget = Math.max(forget ?? item.forget, item.forget);
    }
    const statements: [string, unknown[]][] = [];
    if (charged.size > 0)
      statements.push([
        'INSERT INTO spend_ledger (request_id, key_id, usd, at) SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[]) ON CONFLICT (request_id) DO NOTHING',
        [[...charged.keys()], [...charged.values()].map((c) => c.id), [...charged.values()].map((c) => c.usd), [...charged.values()].map((c) => c.at)],
      ]);
    if (notes.length > 0)
      statements.push([
        'INSERT INTO key_requests (key_id, at) SELECT * FROM unnest($1::text[], $2::float8[])',
        [notes.map((n) => n.keyId), notes.map((n) => n.at)],
      ]);
    if (forget !== null) statements.push(['DELETE FROM key_requests WHERE at <= $1', [forget]]);
    // One statement commits on its own (one round trip, the usual turn: charges only); more share a transaction.
    if (statements.length === 1) await this.db.query(statements[0]![0], statements[0]![1]);
    else
      await this.db.transaction(async (client) => {
        for (const [sql, params] of statements) await client.query(sql, params);
      });
  }

  async requestsSince(since: number): Promise<KeyRequest[]> {
    const rows = await this.db.query<{ key_id: string; at: string }>('SELECT key_id, at FROM key_requests WHERE at > $1 ORDER BY at', [since]);
    return rows.map((r) => ({ keyId: r.key_id, at: Number(r.at) }));
  }

  stampUsed(id: string, at: string): void {
    this.stamps.set(id, at);
    this.stampTimer.arm();
  }

  /** Writes the usage stamps queued so far. */
  async writeStamps(): Promise<void> {
    this.stampTimer.disarm();
    if (this.stamps.size === 0) return;
    const stamps = this.stamps;
    this.stamps = new Map();
    await this.db
      .query('UPDATE api_keys AS k SET last_used_at = s.at FROM unnest($1::text[], $2::text[]) AS s(id, at) WHERE k.id = s.id', [
        [...stamps.keys()],
        [...stamps.values()],
      ])
      .catch(() => {
        // Nobody was promised a stamp; the next use writes it again.
      });
  }

  /** Waits for every write queued so far. */
  async flush(): Promise<void> {
    await this.writes.drain();
    await this.writeStamps();
  }

  changeToken(): number {
    return this.token.read();
  }
}
