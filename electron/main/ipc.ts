import { ipcMain } from 'electron';
import type { Core } from '../core';
import { ipcRoutes } from './ipc-routes';

/** Registers every IPC route (see ipc-routes.ts, which holds all of their logic). */
export function registerIpcHandlers(core: Core): void {
  for (const [channel, handler] of ipcRoutes(core)) ipcMain.handle(channel, handler);
}
