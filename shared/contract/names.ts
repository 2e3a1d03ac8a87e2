/**
 * Names of every inspector operation. Kept free of schemas so that the preload bundle can import
 * it alone; `operations.ts` is typed against this list, so the two cannot drift apart.
 */
export const OPERATION_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'providers.list',
  'providerKeys.set',
  'providerKeys.clear',
  'remoteKey.set',
  'remoteKey.clear',
  'apiKeys.list',
  'apiKeys.create',
  'apiKeys.revoke',
  'models.list',
  'models.endpoints',
  'endpoints.details',
  'endpoints.zdr',
  'endpoints.probe',
  'endpoints.uptime',
  'routing.plan',
  'catalog.export',
  'catalog.import',
  'catalog.discover',
  'backup.export',
  'backup.import',
  'sets.list',
  'sets.get',
  'sets.save',
  'sets.delete',
  'sets.restore',
  'runs.start',
  'runs.get',
  'runs.cancel',
  'runs.list',
  'boxes.list',
  'boxes.add',
  'boxes.update',
  'boxes.remove',
  'datasets.list',
  'datasets.import',
  'datasets.importImages',
  'datasets.items',
  'datasets.updateExpected',
  'datasets.delete',
  'datasets.export',
  'datasets.fromRuns',
  'datasets.fromBoxes',
  'evals.estimate',
  'evals.start',
  'evals.list',
  'evals.get',
  'evals.pause',
  'evals.resume',
  'evals.cancel',
  'evals.delete',
  'evals.report',
  'evals.results',
  'evals.item',
  'evals.export',
  'evals.fitCalibration',
  'evals.saveCalibration',
  'evals.calibrations',
] as const;

export type OperationName = (typeof OPERATION_NAMES)[number];

export const IPC_CHANNEL_PREFIX = 'verdict:';
export const ipcChannel = (name: OperationName): string => `${IPC_CHANNEL_PREFIX}${name}`;
export const httpOperationPath = (name: OperationName): string => `/api/inspector/${name}`;
export const isOperationName = (value: string): value is OperationName =>
  (OPERATION_NAMES as readonly string[]).includes(value);
