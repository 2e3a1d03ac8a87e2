import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OperationInput, OperationOutput } from '../../../../shared/contract/operations';
import { BackupSchema, type ApiKeyKind, type Settings } from '../../../../shared/schemas/inspector';
import { summarizeIssues } from '../../../../shared/contract/result';
import { call } from '../../transport/transport';
import { download } from '../../lib/download';

/** Whether this page talks to its core over IPC (the desktop app) or HTTP (a browser); only the transport knows. */
export { transportKind } from '../../transport/transport';

export const settingsKeys = {
  appInfo: ['settings', 'app-info'] as const,
  settings: ['settings', 'values'] as const,
  providers: ['settings', 'providers'] as const,
  apiKeys: ['settings', 'api-keys'] as const,
  audit: ['settings', 'audit'] as const,
  catalog: ['settings', 'catalog'] as const,
};

export const appInfoQuery = () => queryOptions({ queryKey: settingsKeys.appInfo, queryFn: () => call('app.info', {}), staleTime: Infinity });
export const settingsQuery = () => queryOptions({ queryKey: settingsKeys.settings, queryFn: () => call('settings.get', {}) });
export const providersQuery = () => queryOptions({ queryKey: settingsKeys.providers, queryFn: () => call('providers.list', {}) });
export const apiKeysQuery = () => queryOptions({ queryKey: settingsKeys.apiKeys, queryFn: () => call('apiKeys.list', {}) });
export const auditQuery = (input: OperationInput<'audit.list'>) =>
  queryOptions({ queryKey: [...settingsKeys.audit, input] as const, queryFn: () => call('audit.list', input) });
/** The user's own catalog (catalog.json) as saved. */
export const catalogQuery = () => queryOptions({ queryKey: settingsKeys.catalog, queryFn: () => call('catalog.export', {}) });

/**
 * The settings as shown, and a way to change them. A choice shows in the event that made it (React
 * state): the query cache's own optimistic update reaches the screen only after it has cancelled a
 * read in flight and its observers are told, a few ticks later, and until then a controlled radio
 * went back to the old value. The cache is updated too, for the rest of the app, and rolled back if
 * the core refuses the choice.
 */
export function useSettings() {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery());
  const [pending, setPending] = useState<Partial<Settings>>({});
  const update = useMutation({
    mutationFn: (patch: Partial<Settings>) => call('settings.update', patch),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: settingsKeys.settings });
      const previous = queryClient.getQueryData<Settings>(settingsKeys.settings);
      if (previous) queryClient.setQueryData(settingsKeys.settings, { ...previous, ...patch });
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(settingsKeys.settings, context.previous);
    },
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKeys.settings, next);
      // The sandbox setting changes the catalog and what the app says about it.
      return queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'settings' || q.queryKey[1] === 'app-info' });
    },
    onSettled: (_next, _error, patch) =>
      setPending((held) => Object.fromEntries(Object.entries(held).filter(([key, value]) => patch[key as keyof Settings] !== value))),
  });
  const change = (patch: Partial<Settings>) => {
    setPending((held) => ({ ...held, ...patch }));
    update.mutate(patch);
  };
  const shown = settings.data ? { ...settings.data, ...pending } : undefined;
  return { shown, change, error: update.error };
}

/** Saves where Decisions spans are exported (one collector URL per line of `text`). */
export function useSaveTraceDestinations(text: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      call('settings.update', {
        trace_destinations: text
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
      }),
    onSuccess: (next) => {
      onSaved();
      queryClient.setQueryData(settingsKeys.settings, next);
    },
  });
}

/** Routes through the built-in gateway or a remote one; everything shown may then answer differently. */
export function useChooseGateway() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gateway: { mode: 'built-in' } | { mode: 'remote'; base_url: string }) => call('settings.update', { gateway }),
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKeys.settings, next);
      return queryClient.invalidateQueries();
    },
  });
}

/** Stores the remote gateway's key (bound to its address). */
export function useSaveRemoteKey(key: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('remoteKey.set', { key }),
    onSuccess: () => {
      onSaved();
      return queryClient.invalidateQueries();
    },
  });
}

/** Stores a provider's key; the key leaves the page here, once. */
export function useSetProviderKey(provider: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) => call('providerKeys.set', { provider, key }),
    onSuccess: () => {
      onSaved();
      return queryClient.invalidateQueries({ queryKey: settingsKeys.providers });
    },
  });
}

/**
 * Stores the account id a provider's address names (Cloudflare's `{account_id}`), or removes it when
 * empty. Not a secret: it is a setting, read back to show where the provider's requests go.
 */
export function useSetProviderAccount(provider: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (account: string) => {
      const { provider_accounts: accounts } = await call('settings.get', {});
      const rest = Object.fromEntries(Object.entries(accounts).filter(([slug]) => slug !== provider));
      return call('settings.update', { provider_accounts: account.trim() ? { ...rest, [provider]: account.trim() } : rest });
    },
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKeys.settings, next);
      onSaved();
    },
  });
}

export function useClearProviderKey(provider: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('providerKeys.clear', { provider }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.providers }),
  });
}

/** Asks every provider with a key, and every local server, for its models: any list may change. */
export function useDiscoverModels() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: () => call('catalog.discover', {}), onSuccess: () => queryClient.invalidateQueries() });
}

/** The key list and the audit log, which gains an entry with each change. */
const refreshKeys = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([settingsKeys.apiKeys, settingsKeys.audit].map((queryKey) => queryClient.invalidateQueries({ queryKey })));

export interface NewApiKey {
  name: string;
  kind: ApiKeyKind;
  /** USD as typed; empty for no limit. */
  credit: string;
  /** Requests per minute as typed; empty for no limit. */
  rate: string;
}

/** Creates an API server key; `onCreated` hears its secret, which is shown once. */
export function useCreateApiKey(key: NewApiKey, onCreated: (created: { id: string; key: string }) => void) {
  const queryClient = useQueryClient();
  const { name, kind, credit, rate } = key;
  return useMutation({
    mutationFn: () =>
      call('apiKeys.create', { name, kind, credit_limit: credit.trim() ? Number(credit) : null, rate_limit_rpm: rate.trim() ? Number(rate) : null }),
    onSuccess: (result) => {
      onCreated({ id: result.info.id, key: result.key });
      return refreshKeys(queryClient);
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (id: string) => call('apiKeys.revoke', { id }), onSuccess: () => refreshKeys(queryClient) });
}

/** Exports everything but secrets, downloaded as one JSON file. */
export function useExportBackup() {
  return useMutation({
    mutationFn: () => call('backup.export', {}),
    onSuccess: (backup) => download(`verdict-backup-${backup.exported_at.slice(0, 10)}.json`, JSON.stringify(backup, null, 2)),
  });
}

/** Imports a backup file, checked first; every list may change. */
export function useImportBackup(on: { started: () => void; imported: (done: OperationOutput<'backup.import'>) => void; failed: (message: string) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      on.started();
      let json: unknown;
      try {
        json = JSON.parse(await file.text());
      } catch (error) {
        throw new Error(`${file.name} is not JSON: ${(error as Error).message}`);
      }
      const parsed = BackupSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${file.name} is not a Verdict backup: ${summarizeIssues(parsed.error)}`);
      return call('backup.import', { backup: parsed.data });
    },
    onSuccess: (done) => {
      on.imported(done);
      return queryClient.invalidateQueries();
    },
    onError: (error) => on.failed((error as Error).message),
  });
}

/** Checks and saves the catalog typed as JSON; every list may change. */
export function useImportCatalog(text: string, onSaved: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      let catalog: unknown;
      try {
        catalog = JSON.parse(text);
      } catch (error) {
        throw new Error(`Not valid JSON: ${(error as Error).message}`);
      }
      return call('catalog.import', { catalog });
    },
    onSuccess: () => {
      onSaved();
      return queryClient.invalidateQueries();
    },
  });
}
