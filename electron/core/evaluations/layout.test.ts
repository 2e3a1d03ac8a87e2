import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('the evaluations domain', () => {
  it("knows about a team's spreading of a run in one file only, beside the storage ports", () => {
    const naming = sourceFiles(import.meta.dirname)
      .map((path) =>
        relative(import.meta.dirname, path)
          .split('\\')
          .join('/'),
      )
      .filter((path) => !path.endsWith('/storage.ts'))
      .filter((path) => /\bspread(?!sheet)/i.test(readFileSync(join(import.meta.dirname, path), 'utf8')));
    expect(naming).toEqual(['sending/claimed-queue.ts']);
  });
});
