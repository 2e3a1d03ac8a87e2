import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../shared/schemas/audit';
import { storeBackends } from '../../test-support/store-backends';
import type { AuditStorage, SessionStorage } from './ports';
import { PgAuditStore, PgSessionStore } from './postgres/audit-store';
import { SqliteAuditStore, SqliteSessionStore } from './sqlite/audit-store';

/** The audit log's and the web UI sessions' storage contracts, on both backends. */
interface Ports {
  audit: AuditStorage;
  sessions: SessionStorage;
}

const backends = storeBackends<Ports>({
  sqlite: (store) => ({ audit: new SqliteAuditStore(store), sessions: new SqliteSessionStore(store) }),
  postgres: (db) => ({ audit: new PgAuditStore(db), sessions: new PgSessionStore(db) }),
});

const entry = (n: number, at: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `entry-${n}`,
  at,
  actor: { kind: 'management_key', key_id: 'aaaaaaaaaaaa', key_name: 'Ada' },
  action: 'key.create',
  target: { kind: 'key', id: `k${n}`, name: `key ${n}` },
  details: { kind: 'standard', credit_limit: null, rate_limit_rpm: 60 },
  ...extra,
});

describe.each(backends)('AuditStorage on %s', (_name, backend) => {
  it('keeps each entry exactly, lists newest first (same instant: the later added first), and another connection reads the same', async () => {
    const { a, b, close } = await backend.open();
    try {
      // Details keep their keys' order as written (json, never jsonb) and nested values.
      const first = entry(1, '2026-01-01T00:00:00.000Z', { details: { z: 1, a: { before: { credit_limit: 5 }, after: { credit_limit: null } } } });
      const second = entry(2, '2026-01-02T00:00:00.000Z', {
        actor: { kind: 'desktop' },
        action: 'set.create',
        target: { kind: 'set', id: 's', name: 'Triage' },
      });
      const sameInstant = entry(3, '2026-01-02T00:00:00.000Z', { actor: { kind: 'command_line' }, action: 'key.revoke' });
      await a.audit.append(first);
      await a.audit.append(second);
      await a.audit.append(sameInstant);
      const listed = await b.audit.list({ offset: 0, limit: 10 });
      expect(listed).toEqual({ total: 3, entries: [sameInstant, second, first] });
      expect(Object.keys(listed.entries[2]!.details)).toEqual(['z', 'a']);
      await expect(a.audit.append(first)).rejects.toThrow();
      expect((await b.audit.list({ offset: 0, limit: 10 })).total).toBe(3);
    } finally {
      await close();
    }
  });

  it('pages and filters by actor kind, actor key and target kind, counting all that match', async () => {
    const { a, close } = await backend.open();
    try {
      const entries = [
        entry(1, '2026-01-01T00:00:01.000Z'),
        entry(2, '2026-01-01T00:00:02.000Z', { actor: { kind: 'management_key', key_id: 'bbbbbbbbbbbb', key_name: 'Bo' } }),
        entry(3, '2026-01-01T00:00:03.000Z', { actor: { kind: 'ui_token' }, target: { kind: 'dataset', id: 'd', name: 'tickets' }, action: 'dataset.import' }),
        entry(4, '2026-01-01T00:00:04.000Z'),
        entry(5, '2026-01-01T00:00:05.000Z', { actor: { kind: 'desktop' }, target: { kind: 'set', id: 's', name: 'Triage' }, action: 'set.delete' }),
      ];
      for (const e of entries) await a.audit.append(e);
      const ids = (page: { entries: AuditEntry[] }) => page.entries.map((e) => e.id);
      const second = await a.audit.list({ offset: 2, limit: 2 });
      expect({ total: second.total, ids: ids(second) }).toEqual({ total: 5, ids: ['entry-3', 'entry-2'] });
      const past = await a.audit.list({ offset: 10, limit: 2 });
      expect(past).toEqual({ total: 5, entries: [] });
      const byKeys = await a.audit.list({ offset: 0, limit: 10, actorKind: 'management_key' });
      expect({ total: byKeys.total, ids: ids(byKeys) }).toEqual({ total: 3, ids: ['entry-4', 'entry-2', 'entry-1'] });
      const byAda = await a.audit.list({ offset: 0, limit: 1, actorKeyId: 'aaaaaaaaaaaa' });
      expect({ total: byAda.total, ids: ids(byAda) }).toEqual({ total: 2, ids: ['entry-4'] });
      const datasets = await a.audit.list({ offset: 0, limit: 10, targetKind: 'dataset' });
      expect(datasets.entries).toEqual([entries[2]]);
      expect(await a.audit.list({ offset: 0, limit: 10, actorKind: 'desktop', targetKind: 'key' })).toEqual({ total: 0, entries: [] });
    } finally {
      await close();
    }
  });
});

describe.each(backends)('SessionStorage on %s', (_name, backend) => {
  const session = (hash: string, expires_at: string) => ({
    tokenHash: Buffer.from(hash.padEnd(32, '#')),
    keyId: 'aaaaaaaaaaaa',
    created_at: '2026-01-01T00:00:00.000Z',
    expires_at,
  });

  it('a session made through one connection is found through the other, removed once, and expired ones are cleared', async () => {
    const { a, b, close } = await backend.open();
    try {
      const live = session('live', '2026-01-02T00:00:00.000Z');
      const old = session('old', '2026-01-01T06:00:00.000Z');
      await a.sessions.add(live);
      await a.sessions.add(old);
      expect(await b.sessions.get(live.tokenHash)).toEqual(live);
      expect((await b.sessions.get(live.tokenHash))!.tokenHash).toBeInstanceOf(Buffer);
      expect(await b.sessions.get(Buffer.from('unknown'))).toBeUndefined();
      expect(await b.sessions.removeExpired('2026-01-01T06:00:00.000Z')).toBe(1);
      expect(await a.sessions.get(old.tokenHash)).toBeUndefined();
      expect(await b.sessions.remove(live.tokenHash)).toBe(true);
      expect(await b.sessions.remove(live.tokenHash)).toBe(false);
      expect(await a.sessions.get(live.tokenHash)).toBeUndefined();
    } finally {
      await close();
    }
  });
});
