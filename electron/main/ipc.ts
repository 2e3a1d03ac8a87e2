import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload';
import { ipcChannel, OPERATION_NAMES } from '../../shared/contract/names';
import { asResult, importPath } from '../core/evals/dataset-upload';
import type { Core } from '../core/create-core';
import { dispatch } from '../core/dispatch';
import { GatewayError } from '../core/errors';
import { isAppUrl } from './app-url';

/** Only our own renderer, loaded from the app origin in the top frame, may call the core. */
function senderIsTrusted(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isAppUrl(frame.url);
}

/** One handler per operation of the contract; results cross as data, never as thrown errors. */
export function registerIpcHandlers(core: Core): void {
  for (const name of OPERATION_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, input: unknown) => {
      if (!senderIsTrusted(event)) {
        return { ok: false, error: new GatewayError('forbidden', 'This window may not call Verdict').toBody() };
      }
      return dispatch(core, name, input);
    });
  }
  // A dataset file the user picked, read from its path as a stream (see shared/contract/dataset-upload.ts).
  ipcMain.handle(DATASET_UPLOAD_CHANNEL, async (event, input: unknown) => {
    if (!senderIsTrusted(event)) {
      return { ok: false, error: new GatewayError('forbidden', 'This window may not call Verdict').toBody() };
    }
    return asResult(
      () => importPath(core.datasets, input),
      (error) => core.logger.error({ err: error }, 'dataset import from a path failed'),
    );
  });
}
