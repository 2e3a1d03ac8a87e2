import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'docs/API.md', 'docs/DESIGN.md', 'docs/DESIGN-NOTES.md', 'docs/BENCHMARKS.md'];

describe('documentation links', () => {
  it('point only at files inside the repository, and those files exist', () => {
    for (const doc of DOCS) {
      const text = readFileSync(doc, 'utf8');
      const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]).filter((t) => !/^[a-z]+:/.test(t));
      for (const target of targets) {
        const path = normalize(join(dirname(doc), target));
        expect(path.startsWith('..'), `${doc} links outside the repository: ${target}`).toBe(false);
        expect(existsSync(path), `${doc} links to a missing file: ${target}`).toBe(true);
      }
      expect(text, `${doc} names a path outside the repository`).not.toMatch(/\.\.\/shared\//);
    }
  });
});
