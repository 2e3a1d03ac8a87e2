// Runs before `npm test` and `npm run test:e2e`: the browser journeys need Chromium, and a missing
// one should be said at once, not after two minutes of the other tests.
import { accessSync, constants } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
try {
  accessSync(path, constants.X_OK);
} catch {
  process.stderr.write(
    `The browser tests need Chromium, and there is none at ${path}${process.env.CHROMIUM_PATH ? ' (CHROMIUM_PATH)' : ''}.\n` +
      'Install it (Debian/Ubuntu: sudo apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium or Chrome executable.\n',
  );
  process.exit(1);
}
