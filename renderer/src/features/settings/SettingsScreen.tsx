import { useQuery } from '@tanstack/react-query';
import { ErrorNotice, Panel, ScreenHeader } from '../../ui/components';
import { ApiKeysPanel } from './ApiKeysPanel';
import { AuditLogPanel } from './AuditLogPanel';
import type { Settings } from '../../../../shared/schemas/inspector';
import { appInfoQuery, transportKind, useSettings } from './api';
import { ProviderKeysPanel } from './ProviderKeysPanel';
import { RemoteGatewayPanel } from './RemoteGatewayPanel';
import { TracePanel } from './TracePanel';
import { BackupPanel } from './BackupPanel';
import { CatalogPanel } from './CatalogPanel';
import { ShortcutsPanel } from './ShortcutsPanel';
import { CapturesPanel } from '../captures';

type Choice = 'sandbox' | 'image_urls' | 'theme';

/** A setting's choices as one group of radio buttons named after the setting, each labelled by `text` (the mode itself by default). */
function Segmented<K extends Choice>({
  settings: { shown, change },
  setting,
  legend,
  modes,
  text = (mode) => mode,
  title,
}: {
  settings: Pick<ReturnType<typeof useSettings>, 'shown' | 'change'>;
  setting: K;
  legend: string;
  modes: readonly Settings[K][];
  text?: (mode: Settings[K]) => string;
  title?: (mode: Settings[K]) => string;
}) {
  return (
    <fieldset className="segmented" disabled={!shown}>
      <legend>{legend}</legend>
      {modes.map((mode) => (
        <label key={mode} title={title?.(mode)}>
          <input type="radio" name={setting} value={mode} checked={shown?.[setting] === mode} onChange={() => change({ [setting]: mode })} />
          {text(mode)}
        </label>
      ))}
    </fieldset>
  );
}

const NotSaved = ({ error }: { error: unknown }) => (error ? <ErrorNotice error={error} title="Setting not saved" /> : null);

function GatewayPanel() {
  const settings = useSettings();
  const info = useQuery(appInfoQuery());
  const labels = { auto: 'while no real provider is configured', on: 'always', off: 'never' } as const;
  return (
    <Panel title="Simulated providers">
      <p className="muted">
        Built-in providers that run on this machine with scripted latency, failures and prices, so every screen works without an account. Their answers come
        from a word-overlap baseline, never a model, and they are marked simulated everywhere.
        {info.data ? (info.data.sandbox_active ? ' They are on now.' : ' They are off now.') : ''}
      </p>
      <Segmented
        settings={settings}
        setting="sandbox"
        legend="Use them"
        modes={['auto', 'on', 'off']}
        text={(mode) => (mode === 'auto' ? `auto (${labels.auto})` : mode)}
        title={(mode) => labels[mode]}
      />
      <NotSaved error={settings.error} />
    </Panel>
  );
}

/** Whether an image named by an https URL in a Decisions request (OpenAI's input_image) is fetched here. */
function ImageUrlsPanel() {
  const settings = useSettings();
  const labels = { refuse: 'refuse (callers embed images as data URLs)', fetch: 'fetch them' } as const;
  return (
    <Panel title="Image URLs in requests">
      <p className="muted">
        A Decisions request in OpenAI&apos;s shape may name an image by an https URL. By default it is refused and the caller embeds the image as a data URL.
        Fetched, it must be a public address (no loopback or private network), with no redirect, a PNG, JPEG, GIF or WebP of at most 10 MB.
      </p>
      <Segmented settings={settings} setting="image_urls" legend="Image URLs" modes={['refuse', 'fetch']} text={(mode) => labels[mode]} />
      <NotSaved error={settings.error} />
    </Panel>
  );
}

function AppearancePanel() {
  const settings = useSettings();
  return (
    <Panel title="Appearance">
      <Segmented settings={settings} setting="theme" legend="Theme" modes={['system', 'light', 'dark']} />
      <NotSaved error={settings.error} />
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
