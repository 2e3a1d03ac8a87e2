import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono, type MiddlewareHandler } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';

/**
 * What a browser may keep. The build names every file under /assets/ by a hash of its content, so a
 * name never shows other bytes: kept a year and never asked again (the static server answers no
 * revalidation with a 304, so without this every load fetched the first screen's 0.7 MB of script
 * again, and the charts' 0.6 MB with them). The page that names them is asked again on each load,
 * so a new build is seen at once.
 */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';
export const PAGE_CACHE = 'no-cache';

/**
 * The built renderer. Unknown paths that are not files get index.html so that deep links work;
 * when the renderer was not built, say how to build it instead of a bare 404.
 */
export function staticUi(rendererDir: string): Hono {
  const ui = new Hono();
  const indexPath = join(rendererDir, 'index.html');
  // Said before the file is read (the static server makes its answer at once); a path under
  // /assets/ that is no file goes on to the page and is said again for it.
  const keep =
    (cache: string): MiddlewareHandler =>
    async (c, next) => {
      c.header('Cache-Control', cache);
      await next();
    };
  // The build writes each script and style sheet compressed beside it: sent to a browser that takes it.
  ui.use('/assets/*', keep(ASSET_CACHE), serveStatic({ root: rendererDir, precompressed: true }));
  ui.use('*', keep(PAGE_CACHE), serveStatic({ root: rendererDir }));
  ui.get('*', async (c) => {
    if (!existsSync(indexPath)) {
      return c.text('The user interface has not been built yet. Run `npm run build`, or start with `npm start`.', 503);
    }
    return c.html(await readFile(indexPath, 'utf8'));
  });
  return ui;
}
