import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { filesBridge, operationBridge } from './bridge';

/**
 * Exposes `window.verdict`, with one method per operation of the contract, and `window.verdictFiles`,
 * which imports a dataset file the user picked by its path on disk (read as a stream in the main
 * process, never loaded into the page). No Electron object crosses: plain input in, the plain result out.
 */
const invoke = (channel: string, input: unknown) => ipcRenderer.invoke(channel, input);
contextBridge.exposeInMainWorld('verdict', operationBridge(invoke));
contextBridge.exposeInMainWorld(
  'verdictFiles',
  filesBridge(invoke, (file: File) => webUtils.getPathForFile(file)),
);
