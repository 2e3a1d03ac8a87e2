import { queryOptions } from '@tanstack/react-query';
import type { OperationInput } from '../../../../shared/contract/operations';
import { call } from '../../transport/transport';

export const settingsKeys = {
  appInfo: ['settings', 'app-info'] as const,
  settings: ['settings', 'values'] as const,
  providers: ['settings', 'providers'] as const,
  apiKeys: ['settings', 'api-keys'] as const,
  audit: ['settings', 'audit'] as const,
};

export const appInfoQuery = () => queryOptions({ queryKey: settingsKeys.appInfo, queryFn: () => call('app.info', {}), staleTime: Infinity });
export const settingsQuery = () => queryOptions({ queryKey: settingsKeys.settings, queryFn: () => call('settings.get', {}) });
export const providersQuery = () => queryOptions({ queryKey: settingsKeys.providers, queryFn: () => call('providers.list', {}) });
export const apiKeysQuery = () => queryOptions({ queryKey: settingsKeys.apiKeys, queryFn: () => call('apiKeys.list', {}) });
export const auditQuery = (input: OperationInput<'audit.list'>) =>
  queryOptions({ queryKey: [...settingsKeys.audit, input] as const, queryFn: () => call('audit.list', input) });
