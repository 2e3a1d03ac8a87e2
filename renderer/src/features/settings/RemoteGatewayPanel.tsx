import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNotice, Panel } from '../../ui/components';
import { appInfoQuery, settingsQuery, useChooseGateway, useSaveRemoteKey } from './api';

/** Built-in routing, or another gateway serving the same API (base URL ending in /api/v1 and its key). */
export function RemoteGatewayPanel() {
  const settings = useQuery(settingsQuery());
  const info = useQuery(appInfoQuery());
  const [url, setUrl] = useState('');
  const [key, setKey] = useState('');
  const mode = useChooseGateway();
  const saveKey = useSaveRemoteKey(key, () => setKey(''));
  const current = settings.data?.gateway;
  const onConnect = (event: FormEvent) => {
    event.preventDefault();
    mode.mutate({ mode: 'remote', base_url: url.trim() });
  };
  return (
    <Panel title="Gateway">
      <p className="muted">
        {current?.mode === 'remote'
          ? `Requests, listings and ZDR come from the remote gateway at ${current.base_url}. Its endpoints and measured figures are shown.`
          : 'This app routes requests to providers itself (built-in).'}
      </p>
      <form className="inline-form" onSubmit={onConnect}>
        <label htmlFor="remote-url">Remote base URL</label>
        <input id="remote-url" type="url" placeholder="https://gateway.example/api/v1" value={url} onChange={(e) => setUrl(e.target.value)} size={34} />
        <button type="submit" disabled={!url.trim() || mode.isPending}>
          Use remote gateway
        </button>
        {current?.mode === 'remote' ? (
          <button type="button" className="secondary" onClick={() => mode.mutate({ mode: 'built-in' })}>
            Back to built-in
          </button>
        ) : null}
      </form>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) saveKey.mutate();
        }}
      >
        <label htmlFor="remote-key">Remote gateway key</label>
        <input
          id="remote-key"
          disabled={current?.mode !== 'remote'}
          title={current?.mode !== 'remote' ? 'Connect to a remote gateway first: its key is bound to its address' : undefined}
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder={info.data?.gateway.key_set ? 'Replace key…' : 'Paste key…'}
        />
        <button type="submit" disabled={!key.trim() || saveKey.isPending}>
          Save
        </button>
        <RemoteKeyStatus gateway={info.data?.gateway} />
      </form>
      {mode.error ? <ErrorNotice error={mode.error} title="Gateway not changed" /> : null}
      {saveKey.error ? <ErrorNotice error={saveKey.error} title="Key not saved" /> : null}
    </Panel>
  );
}

/** Whether the remote key is set, and whether it is for the gateway now chosen (it is sent nowhere else). */
function RemoteKeyStatus({ gateway }: { gateway: { base_url: string | null; key_set: boolean; key_origin: string | null } | undefined }) {
  if (!gateway?.key_set) return <span className="badge badge-muted">not set</span>;
  const current = gateway.base_url ? new URL(gateway.base_url).origin : null;
  if (gateway.key_origin !== current) {
    return (
      <span className="badge badge-warn" role="status">
        key is for {gateway.key_origin ?? 'an earlier gateway'}: enter this gateway&apos;s key
      </span>
    );
  }
  return <span className="badge badge-ok">key set</span>;
}
