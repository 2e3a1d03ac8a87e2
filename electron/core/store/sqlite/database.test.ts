import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-core';
import { Store } from './database';
import { MIGRATIONS } from './migrations';

describe('Store', () => {
  let dir: ReturnType<typeof tempDir>;
  afterEach(() => dir.cleanup());

  it('keeps committed writes across close and reopen', () => {
    dir = tempDir();
    const path = join(dir.path, 'db.sqlite');
    const first = Store.open(path);
    first.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['theme', '"dark"']);
    first.close();
    const second = Store.open(path);
    expect(second.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', ['theme'])?.value).toBe('"dark"');
    expect(second.get<{ user_version: number }>('PRAGMA user_version')?.user_version).toBe(MIGRATIONS.length);
    second.close();
  });

  it('rolls back a failed transaction completely', () => {
    dir = tempDir();
    const store = Store.open(join(dir.path, 'db.sqlite'));
    expect(() =>
      store.transaction(() => {
        store.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['a', '1']);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.all('SELECT * FROM settings')).toEqual([]);
    store.close();
  });

  it('refuses a file written by a newer version and leaves it as it was', () => {
    dir = tempDir();
    const path = join(dir.path, 'db.sqlite');
    const store = Store.open(path);
    store.run(`PRAGMA user_version = ${MIGRATIONS.length + 5}`);
    store.close();
    expect(() => Store.open(path)).toThrow(/newer Verdict.*left untouched/);
    const again = Store.open.bind(Store);
    expect(() => again(path)).toThrow(/schema \d+/);
  });

  it('a file that is not a database is refused naming the file and what to do, and left as it was', () => {
    dir = tempDir();
    const garbage = join(dir.path, 'garbage.sqlite');
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    expect(() => Store.open(garbage)).toThrow(
      new RegExp(
        `^The data file ${garbage.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be read as a Verdict database \\(SQLite says: .+\\)\\. It was left as it is; restore it from a backup, or move it aside`,
      ),
    );
    expect(readFileSync(garbage)).toEqual(Buffer.alloc(8192, 7));
  });

  it('opens a data file written by the earlier store, removes the lock directory a kill left behind, and switches it to WAL', () => {
    dir = tempDir();
    cpSync(join(import.meta.dirname, 'fixtures', 'wasm-v9'), dir.path, { recursive: true });
    const path = join(dir.path, 'verdict.sqlite');
    mkdirSync(`${path}.lock`);
    const store = Store.open(path);
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(store.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
    expect(store.get<{ user_version: number }>('PRAGMA user_version')?.user_version).toBe(MIGRATIONS.length);
    expect(store.all('SELECT id, name FROM api_keys ORDER BY id')).toEqual([
      { id: 'aaaaaaaaaaaa', name: 'old job' },
      { id: 'bbbbbbbbbbbb', name: 'admin' },
    ]);
    // Archived and checkpointed spend move to the one figure (the log's tail is added when the log opens).
    expect(store.get('SELECT spent FROM api_keys WHERE id = ?', ['aaaaaaaaaaaa'])).toEqual({ spent: 0.75 });
    expect(store.get('SELECT name FROM question_sets')).toEqual({ name: 'parcel checks' });
    expect(Buffer.isBuffer(store.get<{ hash: unknown }>('SELECT hash FROM api_keys LIMIT 1')?.hash)).toBe(true);
    expect(Buffer.isBuffer(store.all<{ hash: unknown }>('SELECT hash FROM api_keys LIMIT 1')[0]?.hash)).toBe(true);
    store.close();
  });

  it('a write waits for another process holding the write lock, instead of failing', async () => {
    dir = tempDir();
    const path = join(dir.path, 'db.sqlite');
    Store.open(path).close();
    const libsql = createRequire(import.meta.url).resolve('libsql');
    // Another process takes the write lock, says so, and holds it for 400 ms.
    const holder = spawn(process.execPath, [
      '-e',
      `const D = require(${JSON.stringify(libsql)}); const db = new D(${JSON.stringify(path)}); db.exec('BEGIN IMMEDIATE'); db.exec("INSERT INTO settings (key, value) VALUES ('other', '1')"); console.log('locked'); setTimeout(() => { db.exec('COMMIT'); db.close(); }, 400);`,
    ]);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const store = Store.open(path);
    const started = Date.now();
    store.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['mine', '2']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(store.all('SELECT key FROM settings ORDER BY key')).toEqual([{ key: 'mine' }, { key: 'other' }]);
    store.close();
    await new Promise((resolve) => holder.once('exit', resolve));
  });

  it('group commit: writes queued in one turn share a transaction, and each resolves once it is committed', async () => {
    dir = tempDir();
    const path = join(dir.path, 'db.sqlite');
    const store = Store.open(path);
    const reader = Store.open(path);
    const count = () => reader.get<{ n: number }>('SELECT COUNT(*) AS n FROM settings')!.n;
    const writes = Array.from({ length: 50 }, (_, i) => store.commit('INSERT INTO settings (key, value) VALUES (?, ?)', [`k${i}`, '1']));
    expect(count()).toBe(0);
    const seen: number[] = [];
    await Promise.all(writes.map((w) => w.then(() => seen.push(count()))));
    // Every write saw all fifty committed: one transaction.
    expect(seen).toEqual(Array(50).fill(50));
    // A failing write fails its whole group, and every waiter hears of it.
    const failing = [store.commit('INSERT INTO settings (key, value) VALUES (?, ?)', ['x', '1']), store.commit('INSERT INTO nowhere VALUES (1)')];
    const results = await Promise.allSettled(failing);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(count()).toBe(50);
    reader.close();
    store.close();
  });

  it('group commit: amounts added to one key in one group are one statement with their sum; the next group starts again', async () => {
    dir = tempDir();
    const store = Store.open(join(dir.path, 'db.sqlite'));
    store.run('CREATE TABLE totals (id TEXT PRIMARY KEY, n REAL NOT NULL)');
    store.run("INSERT INTO totals VALUES ('a', 0), ('b', 0)");
    // Each statement that changes a total leaves a row here.
    store.run('CREATE TABLE updates (id TEXT)');
    store.run('CREATE TRIGGER counted AFTER UPDATE ON totals BEGIN INSERT INTO updates VALUES (new.id); END');
    const add = (id: string, n: number) => store.commit('UPDATE totals SET n = n + ? WHERE id = ?', [n, id], { key: id, at: 0 });
    await Promise.all([add('a', 1), add('b', 8), add('a', 2), add('a', 4)]);
    const read = () => Object.fromEntries(store.all<{ id: string; n: number }>('SELECT id, n FROM totals ORDER BY id').map((r) => [r.id, r.n]));
    expect(read()).toEqual({ a: 7, b: 8 });
    expect(store.all<{ id: string }>('SELECT id FROM updates').map((r) => r.id)).toEqual(['a', 'b']);
    await add('a', 16);
    expect(read()).toEqual({ a: 23, b: 8 });
    expect(store.all('SELECT id FROM updates')).toHaveLength(3);
    store.close();
  });

  it("data_version: a look stands for its time, across turns of the event loop; after it, another connection's commit is seen", async () => {
    dir = tempDir();
    const path = join(dir.path, 'db.sqlite');
    // A look that stands for 200 ms, so the other connection's write surely falls inside it.
    const store = Store.open(path, { sharedLookMs: 200 });
    const other = Store.open(path);
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    try {
      const before = store.dataVersion();
      other.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['theme', '"dark"']);
      // Within the look's time: the look already made stands, in this turn and the next.
      expect(store.dataVersion()).toBe(before);
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.dataVersion()).toBe(before);
      // Past its time: looked at again, and the other connection's commit is seen.
      spin(250);
      const after = store.dataVersion();
      expect(after).not.toBe(before);
      other.run('INSERT INTO settings (key, value) VALUES (?, ?)', ['font', '"mono"']);
      spin(250);
      expect(store.dataVersion()).not.toBe(after);
    } finally {
      other.close();
      store.close();
    }
  });
});
