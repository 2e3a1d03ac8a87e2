/**
 * The objects the preload script exposes, built from an `invoke` function and a way to read a picked
 * file's path, so they are tested without Electron: `verdict` has one method per operation of the
 * contract; `verdictFiles.importDataset` sends a picked file's path (never its bytes) to the main process.
 */
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload-names';
import { ipcChannel, OPERATION_NAMES, type OperationName } from '../../shared/contract/names';

export type Invoke = (channel: string, input: unknown) => Promise<unknown>;

export function operationBridge(invoke: Invoke): Readonly<Record<OperationName, (input: unknown) => Promise<unknown>>> {
  return Object.freeze(
    Object.fromEntries(OPERATION_NAMES.map((name) => [name, (input: unknown) => invoke(ipcChannel(name), input)])) as Record<
      OperationName,
      (input: unknown) => Promise<unknown>
    >,
  );
}

export function filesBridge<F>(
  invoke: Invoke,
  pathOf: (file: F) => string,
): Readonly<{ importDataset: (description: Record<string, unknown>, file: F) => Promise<unknown> }> {
  return Object.freeze({
    importDataset: (description: Record<string, unknown>, file: F) => invoke(DATASET_UPLOAD_CHANNEL, { ...description, path: pathOf(file) }),
  });
}
