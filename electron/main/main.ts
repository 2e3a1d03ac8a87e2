import { app, BrowserWindow, net, protocol } from 'electron';
import { join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCore, type Core, FileSecretStore, createLogger } from '../core';
import { registerIpcHandlers } from './ipc';
import { safeStorageCodec } from './safe-storage-codec';
import { createMainWindow, rendererRoot } from './window';

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

let core: Core | undefined;

/** Serves the built renderer from app://verdict/, refusing any path that escapes its folder. */
function serveRenderer(root: string): void {
  protocol.handle('app', (request) => {
    const { pathname } = new URL(request.url);
    const file = normalize(join(root, decodeURIComponent(pathname === '/' ? '/index.html' : pathname)));
    if (!file.startsWith(root + sep)) return new Response('Not found', { status: 404 });
    return net.fetch(pathToFileURL(file).toString());
  });
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = process.env['VERDICT_DATA_DIR'] ?? app.getPath('userData');
  core = await createCore({
    dataDir,
    secrets: new FileSecretStore(join(dataDir, 'secrets.json'), safeStorageCodec),
    host: 'desktop',
    version: app.getVersion(),
    logger: createLogger(),
  });
  registerIpcHandlers(core!);
  serveRenderer(rendererRoot(app.getAppPath()));
  createMainWindow(join(__dirname, 'preload.cjs'));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow(join(__dirname, 'preload.cjs'));
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('will-quit', () => {
  void core?.close();
});
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-attach-webview', (event) => event.preventDefault());
});

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}
