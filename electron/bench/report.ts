import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** Replaces (or adds) one `## title` section of docs/BENCHMARKS.md with freshly measured figures. */
export function writeSection(path: string, title: string, body: string): void {
  const header = '# Benchmarks\n\nFigures measured by `npm run bench:gateway` and `npm run bench:decisions` on the machine named in each section. Re-run to refresh.\n';
  const text = existsSync(path) ? readFileSync(path, 'utf8') : header;
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
  const section = `## ${title}\n\nMachine: ${machine}\n\n${body.trim()}\n`;
  const pattern = new RegExp(`## ${title}\\n[\\s\\S]*?(?=\\n## |$)`);
  const next = pattern.test(text) ? text.replace(pattern, section) : `${text.trimEnd()}\n\n${section}`;
  writeFileSync(path, next.endsWith('\n') ? next : `${next}\n`);
}

export const fmt = (value: number, digits = 2) => value.toFixed(digits);
