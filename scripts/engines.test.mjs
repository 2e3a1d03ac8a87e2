import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const readme = readFileSync('README.md', 'utf8');

/** Enough of npm's range syntax for the engines fields in our tree: `||`, `^`, `>=`, `>`, `<`, bare majors, spaces. */
function satisfies(version, range) {
  const v = version.split('.').map(Number);
  const parse = (s) => {
    const parts = s.replace(/^v/, '').split('.').map(Number);
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
  };
  const cmp = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const one = (term) => {
    const m = /^(\^|>=|>|<=|<|=)?\s*v?([\d.x*]+)$/.exec(term.trim());
    if (!m) throw new Error(`range term not understood: "${term}"`);
    const [op = '', raw] = [m[1], m[2]];
    const bound = parse(raw.replace(/[x*]/g, '0'));
    if (op === '^') return v[0] === bound[0] && cmp(v, bound) >= 0;
    if (op === '>=') return cmp(v, bound) >= 0;
    if (op === '>') return cmp(v, bound) > 0;
    if (op === '<') return cmp(v, bound) < 0;
    if (op === '<=') return cmp(v, bound) <= 0;
    const fields = raw.split('.').filter((f) => f !== 'x' && f !== '*').length;
    return bound.slice(0, fields).every((n, i) => n === v[i]);
  };
  return range.split('||').some((alt) =>
    alt
      .trim()
      .replace(/(>=|<=|>|<|\^|=)\s+/g, '$1')
      .split(/\s+/)
      .every(one),
  );
}

/** The desktop window's and installers' tools, which want Node 22.12+; everything else runs on Node 20 too. */
const ELECTRON_TOOLS = ['electron', '@electron/get', '@electron/rebuild', '@electron-internal/extract-zip', 'node-abi'];
/** Clients from npm that only the tests point at the server; they ask for Node 22 and run on Node 20 all the same (their tests pass on it). */
const TEST_CLIENTS = [
  'openai',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/gateway',
  '@ai-sdk/typesafe-ai',
  '@ai-sdk/provider',
  '@ai-sdk/provider-utils',
  '@openrouter/ai-sdk-provider',
];
/**
 * The browser tests' Chromium (a dev dependency) asks for Node 22.17+, but all it does with Node is
 * unpack its archive with node:zlib, which 20.19 and 22.13 do too: the tests run on both.
 */
const TEST_BROWSER = ['@sparticuz/chromium'];
/** axe-core's Playwright runner asks for Node 22.12+; the browser journeys that use it pass on Node 20. */
const TEST_AXE = ['@axe-core/playwright'];
const PROBES = ['20.18.0', '20.19.0', '21.7.0', '22.0.0', '22.12.0', '22.13.0', '22.17.0', '23.11.0', '24.0.0', '25.2.0'];

const constrained = Object.entries(lock.packages)
  .filter(([path, p]) => path !== '' && p.engines?.node)
  .map(([path, p]) => ({ name: path.replace(/^.*node_modules\//, ''), range: p.engines.node }));

describe('engines', () => {
  it('accepts Node 20.19+, 22 and 24', () => {
    for (const version of ['20.19.0', '22.13.0', '22.20.0', '24.0.0', '24.11.1', process.versions.node])
      expect(satisfies(version, pkg.engines.node), version).toBe(true);
  });

  it('claims no Node version that a dependency refuses, except the Electron tools, the test clients and axe on Node 20, and the test browser before 22.17', () => {
    for (const version of PROBES.filter((p) => satisfies(p, pkg.engines.node))) {
      const refused = constrained.filter((d) => !satisfies(version, d.range)).map((d) => d.name);
      const allowed = [
        ...(version.startsWith('20.') ? [...ELECTRON_TOOLS, ...TEST_CLIENTS, ...TEST_AXE] : []),
        ...(satisfies(version, '<22.17.0') ? TEST_BROWSER : []),
      ];
      expect(
        refused.filter((name) => !allowed.includes(name)),
        `Node ${version}`,
      ).toEqual([]);
    }
  });

  it("the README names the Node versions and explains the Electron tools', the test clients' and the test browser's warnings in one line", () => {
    expect(readme).toContain(pkg.engines.node);
    const line = readme.split('\n').find((l) => l.includes('EBADENGINE'));
    expect(line).toBeDefined();
    for (const name of [...ELECTRON_TOOLS, ...TEST_CLIENTS, ...TEST_BROWSER, ...TEST_AXE]) expect(line).toContain(name);
  });
});
