import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const STILL_HOLDING_SQL = JSON.parse(readFileSync(join(import.meta.dirname, 'still-holding-sql.json'), 'utf8')) as string[];
/** A statement's opening words, as the store writes them. */
const SQL = /\b(SELECT\s+[\w*(]|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(TABLE|INDEX|TRIGGER)\s|PRAGMA\s+\w)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('SQL lives in the store', () => {
  it('no file outside electron/core/store/ holds SQL but those still listed, and each listed one still does', () => {
    const holding = [...sourceFiles(join(ROOT, 'electron')), ...sourceFiles(join(ROOT, 'shared')), ...sourceFiles(join(ROOT, 'renderer', 'src'))]
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !path.startsWith('electron/core/store/') && !path.startsWith('electron/test-support/') && !path.startsWith('electron/bench/'))
      .filter((path) => SQL.test(readFileSync(join(ROOT, path), 'utf8')))
      .sort();
    expect(holding).toEqual([...STILL_HOLDING_SQL].sort());
  });
});
