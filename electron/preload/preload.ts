import { contextBridge, ipcRenderer } from 'electron';
import { ipcChannel, OPERATION_NAMES, type OperationName } from '../../shared/contract/names';

/**
 * Exposes exactly one object, `window.verdict`, with one method per operation of the contract.
 * No Electron object crosses: each method passes plain input in and returns the plain result.
 */
const bridge = Object.fromEntries(
  OPERATION_NAMES.map((name) => [name, (input: unknown) => ipcRenderer.invoke(ipcChannel(name), input)]),
) as Record<OperationName, (input: unknown) => Promise<unknown>>;

contextBridge.exposeInMainWorld('verdict', Object.freeze(bridge));
