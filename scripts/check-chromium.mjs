// Runs before `npm test` and `npm run test:e2e`: says which Chromium the browser journeys will use
// and why, unpacking the one from @sparticuz/chromium if no system Chromium is found, and stops at
// once if it would not start, not after two minutes of the other tests.
import { findChromium, versionOf } from './lib/chromium.mjs';

const NAMES = { CHROMIUM_PATH: 'the Chromium named by CHROMIUM_PATH', system: 'the system Chromium', bundled: 'the Chromium inside @sparticuz/chromium' };

let chromium;
try {
  chromium = await findChromium();
} catch (error) {
  process.stderr.write(`The browser tests have no Chromium: ${error.message}\n`);
  process.exit(1);
}
const { version, error } = versionOf(chromium.path);
if (error) {
  process.stderr.write(`The browser tests would use ${NAMES[chromium.source]} at ${chromium.path} (${chromium.why}), but it does not start: ${error}\n`);
  if (chromium.source !== 'bundled') process.stderr.write('Set CHROMIUM_PATH to a Chromium or Chrome that starts, or unset it to use the one from npm.\n');
  process.exit(1);
}
process.stdout.write(`Browser tests: ${version}, ${NAMES[chromium.source]}, at ${chromium.path} (${chromium.why}).\n`);
