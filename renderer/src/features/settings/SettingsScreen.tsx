import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/schemas/inspector';
import { call, transportKind } from '../../transport/transport';
import { ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { ApiKeysPanel } from './ApiKeysPanel';
import { appInfoQuery, settingsKeys, settingsQuery } from './api';
import { ProviderKeysPanel } from './ProviderKeysPanel';
import { RemoteGatewayPanel } from './RemoteGatewayPanel';
import { TracePanel } from './TracePanel';
import { BackupPanel } from './BackupPanel';
import { CatalogPanel } from './CatalogPanel';

function useSettingsUpdate() {
  const queryClient = useQueryClient();
  // Optimistic: the choice shows at once and is rolled back if the core refuses it.
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
  });
  return update;
}

function GatewayPanel() {
  const settings = useQuery(settingsQuery());
  const info = useQuery(appInfoQuery());
  const update = useSettingsUpdate();
  const labels = { auto: 'while no real provider is configured', on: 'always', off: 'never' } as const;
  return (
    <Panel title="Simulated providers">
      <p className="muted">
        Built-in providers that run on this machine with scripted latency, failures and prices, so every screen works without an account. Their answers
        come from a word-overlap baseline, never a model, and they are marked simulated everywhere.
        {info.data ? (info.data.sandbox_active ? ' They are on now.' : ' They are off now.') : ''}
      </p>
      <fieldset className="segmented" disabled={!settings.data}>
        <legend>Use them</legend>
        {(['auto', 'on', 'off'] as const).map((mode) => (
          <label key={mode} title={labels[mode]}>
            <input type="radio" name="sandbox" value={mode} checked={settings.data?.sandbox === mode} onChange={() => update.mutate({ sandbox: mode })} />
            {mode === 'auto' ? `auto (${labels.auto})` : mode}
          </label>
        ))}
      </fieldset>
      {update.error ? <ErrorNotice error={update.error} title="Setting not saved" /> : null}
    </Panel>
  );
}

function AppearancePanel() {
  const settings = useQuery(settingsQuery());
  const update = useSettingsUpdate();
  return (
    <Panel title="Appearance">
      <fieldset className="segmented" disabled={!settings.data}>
        <legend>Theme</legend>
        {(['system', 'light', 'dark'] as const).map((theme) => (
          <label key={theme}>
            <input type="radio" name="theme" value={theme} checked={settings.data?.theme === theme} onChange={() => update.mutate({ theme })} />
            {theme}
          </label>
        ))}
      </fieldset>
      {update.error ? <ErrorNotice error={update.error} title="Setting not saved" /> : null}
    </Panel>
  );
}

function AboutPanel() {
  const info = useQuery(appInfoQuery());
  if (!info.data) return null;
  return (
    <Panel title="About">
      <dl className="facts">
        <dt>Version</dt>
        <dd>{info.data.version}</dd>
        <dt>Running as</dt>
        <dd>{info.data.host === 'desktop' ? 'desktop app' : 'browser mode (headless server)'}, talking over {transportKind() === 'ipc' ? 'IPC' : 'HTTP'}</dd>
        {transportKind() === 'http' ? (
          <>
            <dt>HTTP API</dt>
            <dd className="mono">
              {window.location.origin}/api/v1 · {window.location.origin}/api/alpha/decisions
            </dd>
          </>
        ) : null}
        <dt>Data directory</dt>
        <dd className="mono">{info.data.data_dir}</dd>
        <dt>Secret storage</dt>
        <dd>{info.data.secret_storage.description}</dd>
      </dl>
    </Panel>
  );
}

export function SettingsScreen() {
  const info = useQuery(appInfoQuery());
  return (
    <>
      <ScreenHeader title="Settings" description="Provider keys, the HTTP API server's keys, appearance, and where your data lives." />
      <ProviderKeysPanel secretStorage={info.data?.secret_storage} />
      <ApiKeysPanel />
      <CatalogPanel />
      <RemoteGatewayPanel />
      <GatewayPanel />
      <TracePanel />
      <AppearancePanel />
      <BackupPanel />
      <AboutPanel />
    </>
  );
}
