// `npm run eval -- …`: a question set over a labelled dataset, without the UI.
import { runBuilt } from './lib/run-built.mjs';

runBuilt('dist/server/eval.mjs', process.argv.slice(2));
