import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../../../shared/schemas/inspector';
import { call, transportKind } from '../../transport/transport';
import { ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { ApiKeysPanel } from './ApiKeysPanel';
import { appInfoQuery, settingsKeys, settingsQuery } from './api';
import { ProviderKeysPanel } from './ProviderKeysPanel';

function AppearancePanel() {
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQuery());
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
    onSuccess: (next) => queryClient.setQueryData(settingsKeys.settings, next),
  });
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
      <AppearancePanel />
      <AboutPanel />
    </>
  );
}
