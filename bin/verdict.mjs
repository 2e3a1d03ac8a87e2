#!/usr/bin/env node
// `verdict eval …` and `verdict serve …`: Verdict's command line where it is installed as a package
// (`npx verdict eval …` in a project that depends on it). Each runs the bundled file that
// `npm run eval` and `npm run serve` run in a checkout, in this process, with the same arguments.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const COMMANDS = { eval: 'dist/server/eval.mjs', serve: 'dist/server/cli.mjs' };
const HELP = `Usage:
  verdict eval --set SET.json --dataset DATA.jsonl --model A[,B...] [options]
      a question set over a labelled dataset, as a gate a pipeline can run (verdict eval --help)
  verdict serve [options]
      the headless server and its keys and store commands (verdict serve --help)
`;

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(HELP);
  process.exit(command === undefined ? 2 : 0);
}
const file = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
if (!file) {
  process.stderr.write(`verdict: no command "${command}"\n\n${HELP}`);
  process.exit(2);
}
const path = join(root, file);
if (!existsSync(path)) {
  process.stderr.write(`verdict ${command}: ${file} is missing from ${root}; in a checkout of Verdict, run npm run build first\n`);
  process.exit(1);
}
process.argv = [process.argv[0], path, ...args];
await import(pathToFileURL(path).href);
