import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

/**
 * The built renderer. Unknown paths that are not files get index.html so that deep links work;
 * when the renderer was not built, say how to build it instead of a bare 404.
 */
export function staticUi(rendererDir: string): Hono {
  const ui = new Hono();
  const indexPath = join(rendererDir, 'index.html');
  ui.use('/assets/*', serveStatic({ root: rendererDir }));
  ui.use('*', serveStatic({ root: rendererDir }));
  ui.get('*', async (c) => {
    if (!existsSync(indexPath)) {
      return c.text('The user interface has not been built yet. Run `npm run build`, or start with `npm start`.', 503);
    }
    return c.html(await readFile(indexPath, 'utf8'));
  });
  return ui;
}
