/**
 * What the main process answers over IPC, without Electron: one route per operation of the contract
 * plus the dataset file import, each refusing any sender but the app's own top frame. ipc.ts only
 * registers these with ipcMain, so everything here is tested under plain Node.
 */
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload';
import { ipcChannel, OPERATION_NAMES } from '../../shared/contract/names';
import { asResult, importPath, type Core, dispatch, auditedImport, GatewayError } from '../core';
import type { AuditActor } from '../../shared/schemas/audit';
import { isAppUrl } from './app-url';

/** The part of an IPC event the check reads: the frame that sent it. */
export interface IpcSender {
  senderFrame: { url: string; parent: unknown } | null;
}

export type IpcRoute = readonly [channel: string, handler: (event: IpcSender, input: unknown) => Promise<unknown>];

/** Only our own renderer, loaded from the app origin in the top frame, may call the core. */
export function senderIsTrusted(event: IpcSender): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

/** Whoever uses the desktop app's window: what it changes is logged as the desktop's. */
const DESKTOP: AuditActor = { kind: 'desktop' };

const refused = () => ({ ok: false, error: new GatewayError('forbidden', 'This window may not call Verdict').toBody() });

/** Every route: results cross as data, never as thrown errors. */
export function ipcRoutes(core: Core): IpcRoute[] {
  const routes: IpcRoute[] = OPERATION_NAMES.map(
    (name) => [ipcChannel(name), async (event, input) => (senderIsTrusted(event) ? dispatch(core, name, input, DESKTOP) : refused())] as const,
  );
  // A dataset file the user picked, read from its path as a stream (see shared/contract/dataset-upload.ts).
  routes.push([
    DATASET_UPLOAD_CHANNEL,
    async (event, input) =>
      senderIsTrusted(event)
        ? asResult(
            () => importPath(core.datasets, input, (report, file) => auditedImport(core.audit, DESKTOP, report, { file })),
            (error) => core.logger.error({ err: error }, 'dataset import from a path failed'),
          )
        : refused(),
  ]);
  return routes;
}
