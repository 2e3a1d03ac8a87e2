import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-core';
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
});
