import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createCore, type Core } from '../core/create-core';
import { FileSecretStore, ownerOnlyFileCodec } from '../core/keys/secret-store';
import type { Logger } from '../core/logger';
import type { FleetOptions } from '../core/sandbox/fleet';
import { createServerApp, DEFAULT_BODY_LIMIT_BYTES, LOOPBACK_HOSTNAMES } from './app';
import { decisionsLane } from './decisions-lane';

export interface StartServerOptions {
  port: number;
  host: string;
  dataDir: string;
  rendererDir: string;
  version: string;
  bodyLimitBytes?: number;
  logger?: Logger;
  sandbox?: FleetOptions;
  timeouts?: { deadlineMs: number; attemptMs: number };
  /**
   * Let the HTTP adapter install its lighter global Request/Response (much faster responses).
   * Off when other code in the same process checks `instanceof Request` (tests that run a client here).
   */
  overrideGlobalObjects?: boolean;
}

export interface RunningServer {
  core: Core;
  /** Base URL of the server, e.g. http://127.0.0.1:8787 */
  url: string;
  /** The link that opens the inspector with a session (carries this run's token). */
  uiUrl: string;
  /** Set when this start created the first management key; shown once, never stored. */
  initialManagementKey: string | undefined;
  close(): Promise<void>;
}

const isLoopback = (host: string): boolean => host === '127.0.0.1' || host === 'localhost' || host === '::1';
const urlHost = (host: string): string => (host.includes(':') ? `[${host}]` : host);

/** Starts the headless host: the core, then the HTTP server on host:port. */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const secrets = new FileSecretStore(join(options.dataDir, 'secrets.json'), ownerOnlyFileCodec);
  const core = await createCore({
    dataDir: options.dataDir,
    secrets,
    host: 'browser',
    version: options.version,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  });
  const initialManagementKey = core.apiKeys.count() === 0 ? core.apiKeys.create('Initial management key', 'management').key : undefined;
  const uiToken = randomBytes(24).toString('base64url');
  const allowedHostnames = isLoopback(options.host) ? LOOPBACK_HOSTNAMES : null;
  const app = createServerApp(core, {
    uiToken,
    rendererDir: options.rendererDir,
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
    allowedHostnames,
  });
  const routed = getRequestListener(app.fetch, { overrideGlobalObjects: options.overrideGlobalObjects ?? true });
  const lane = decisionsLane(core, { allowedHostnames, bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES });
  const server = createServer((req, res) => {
    if (!lane(req, res)) void routed(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await core.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`Port ${options.port} on ${options.host} is already in use; choose another with --port`);
    if (code === 'EACCES') throw new Error(`No permission to listen on ${options.host}:${options.port}; choose a port above 1023 with --port`);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(options.host)}:${port}`;
  return {
    core,
    url,
    uiUrl: `${url}/?token=${uiToken}`,
    initialManagementKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          void core.close().then(resolve);
        });
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
