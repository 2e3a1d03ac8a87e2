import { useQuery } from '@tanstack/react-query';
import { ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { ApiKeysPanel } from './ApiKeysPanel';
import { AuditLogPanel } from './AuditLogPanel';
import { appInfoQuery, transportKind, useSettings } from './api';
import { ProviderKeysPanel } from './ProviderKeysPanel';
import { RemoteGatewayPanel } from './RemoteGatewayPanel';
import { TracePanel } from './TracePanel';
import { BackupPanel } from './BackupPanel';
import { CatalogPanel } from './CatalogPanel';
import { ShortcutsPanel } from './ShortcutsPanel';
import { CapturesPanel } from '../captures';

function GatewayPanel() {
  const { shown, change, error } = useSettings();
  const info = useQuery(appInfoQuery());
  const labels = { auto: 'while no real provider is configured', on: 'always', off: 'never' } as const;
  return (
    <Panel title="Simulated providers">
      <p className="muted">
        Built-in providers that run on this machine with scripted latency, failures and prices, so every screen works without an account. Their answers come
        from a word-overlap baseline, never a model, and they are marked simulated everywhere.
        {info.data ? (info.data.sandbox_active ? ' They are on now.' : ' They are off now.') : ''}
      </p>
      <fieldset className="segmented" disabled={!shown}>
        <legend>Use them</legend>
        {(['auto', 'on', 'off'] as const).map((mode) => (
          <label key={mode} title={labels[mode]}>
            <input type="radio" name="sandbox" value={mode} checked={shown?.sandbox === mode} onChange={() => change({ sandbox: mode })} />
            {mode === 'auto' ? `auto (${labels.auto})` : mode}
          </label>
        ))}
      </fieldset>
      {error ? <ErrorNotice error={error} title="Setting not saved" /> : null}
    </Panel>
  );
}

/** Whether an image named by an https URL in a Decisions request (OpenAI's input_image) is fetched here. */
function ImageUrlsPanel() {
  const { shown, change, error } = useSettings();
  const labels = { refuse: 'refuse (callers embed images as data URLs)', fetch: 'fetch them' } as const;
  return (
    <Panel title="Image URLs in requests">
      <p className="muted">
        A Decisions request in OpenAI&apos;s shape may name an image by an https URL. By default it is refused and the caller embeds the image as a data URL.
        Fetched, it must be a public address (no loopback or private network), with no redirect, a PNG, JPEG, GIF or WebP of at most 10 MB.
      </p>
      <fieldset className="segmented" disabled={!shown}>
        <legend>Image URLs</legend>
        {(['refuse', 'fetch'] as const).map((mode) => (
          <label key={mode}>
            <input type="radio" name="image_urls" value={mode} checked={shown?.image_urls === mode} onChange={() => change({ image_urls: mode })} />
            {labels[mode]}
          </label>
        ))}
      </fieldset>
      {error ? <ErrorNotice error={error} title="Setting not saved" /> : null}
    </Panel>
  );
}

function AppearancePanel() {
  const { shown, change, error } = useSettings();
  return (
    <Panel title="Appearance">
      <fieldset className="segmented" disabled={!shown}>
        <legend>Theme</legend>
        {(['system', 'light', 'dark'] as const).map((theme) => (
          <label key={theme}>
            <input type="radio" name="theme" value={theme} checked={shown?.theme === theme} onChange={() => change({ theme })} />
            {theme}
          </label>
        ))}
      </fieldset>
      {error ? <ErrorNotice error={error} title="Setting not saved" /> : null}
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
        <dd>
          {info.data.host === 'desktop' ? 'desktop app' : 'browser mode (headless server)'}, talking over {transportKind() === 'ipc' ? 'IPC' : 'HTTP'}
        </dd>
        {transportKind() === 'http' ? (
          <>
            <dt>HTTP API</dt>
            <dd className="mono">
              {window.location.origin}/api/v1 (models, endpoints, OpenAI&apos;s /decisions, /systemone) · {window.location.origin}/api/alpha/decisions ·{' '}
              {window.location.origin}/api/ai (the AI SDK gateway)
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
      <ScreenHeader title="Settings" description="Provider keys, the HTTP API server's keys and capture rules, appearance, and where your data lives." />
      <ProviderKeysPanel secretStorage={info.data?.secret_storage} />
      <ApiKeysPanel />
      <CapturesPanel />
      <AuditLogPanel />
      <CatalogPanel />
      <RemoteGatewayPanel />
      <GatewayPanel />
      <TracePanel />
      <ImageUrlsPanel />
      <AppearancePanel />
      <ShortcutsPanel />
      <BackupPanel />
      <AboutPanel />
    </>
  );
}
