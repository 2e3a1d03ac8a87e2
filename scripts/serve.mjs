// `npm run serve -- …`: the headless server (and its `keys` commands).
import { runBuilt } from './lib/run-built.mjs';

runBuilt('dist/server/cli.mjs', process.argv.slice(2));
