import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { DATASET_UPLOAD_CHANNEL } from '../../shared/contract/dataset-upload-names';
import { ipcChannel, OPERATION_NAMES, type OperationName } from '../../shared/contract/names';

/**
 * Exposes `window.verdict`, with one method per operation of the contract, and `window.verdictFiles`,
 * which imports a dataset file the user picked by its path on disk (read as a stream in the main
 * process, never loaded into the page). No Electron object crosses: plain input in, the plain result out.
 */
const bridge = Object.fromEntries(
  OPERATION_NAMES.map((name) => [name, (input: unknown) => ipcRenderer.invoke(ipcChannel(name), input)]),
) as Record<OperationName, (input: unknown) => Promise<unknown>>;

contextBridge.exposeInMainWorld('verdict', Object.freeze(bridge));

contextBridge.exposeInMainWorld(
  'verdictFiles',
  Object.freeze({
    importDataset: (description: Record<string, unknown>, file: File) => ipcRenderer.invoke(DATASET_UPLOAD_CHANNEL, { ...description, path: webUtils.getPathForFile(file) }),
  }),
);
