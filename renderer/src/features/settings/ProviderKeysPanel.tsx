import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ProviderSummary } from '../../../../shared/schemas/inspector';
import { ErrorNotice, Loading, Panel } from '../../ui/components';
import { providersQuery, useClearProviderKey, useDiscoverModels, useSetProviderKey } from './api';
import { needsAccount, ProviderAccount, useAddressOf } from './ProviderAccount';
import { ColumnHeads } from '../../ui/ColumnHeads';

function KeyStatus({ provider }: { provider: ProviderSummary }) {
  if (!provider.needs_key) return <span className="badge">local, no key needed</span>;
  if (!provider.key_set) return <span className="badge badge-muted">not set</span>;
  const pointsAt = new URL(provider.base_url).origin;
  if (provider.key_origin && provider.key_origin !== pointsAt) {
    // The provider was pointed elsewhere (catalog file, import): its key stays with the address it was entered for.
    return (
      <span className="badge badge-warn" role="status" title={`The key was entered for ${provider.key_origin}; it is never sent to ${pointsAt}.`}>
        key is for {provider.key_origin}: enter a key for {pointsAt}
      </span>
    );
  }
  const when = provider.key_updated_at ? new Date(provider.key_updated_at).toLocaleString() : 'unknown time';
  return (
    <span className="badge badge-ok" title={`Stored ${when}`}>
      key set
    </span>
  );
}

/** What the provider's own model listing said; a local server that is not running is no error. */
function DiscoveryStatus({ provider, discovery }: { provider: ProviderSummary; discovery: NonNullable<ProviderSummary['discovery']> }) {
  const title = `Asked ${new Date(discovery.at).toLocaleString()}`;
  if (!discovery.error)
    return (
      <div className="small muted" title={title}>
        {discovery.models} models listed
      </div>
    );
  if (provider.local && discovery.error === 'connection refused') {
    return (
      <div className="small muted" title={title}>
        not running (nothing answers at {provider.base_url})
      </div>
    );
  }
  return (
    <div className="small text-error" title={title}>
      model list: {discovery.error}
    </div>
  );
}

/** A write-only key field: the value leaves this component once, on save, and is then forgotten. */
function ProviderKeyRow({ provider }: { provider: ProviderSummary }) {
  const [draft, setDraft] = useState('');
  const save = useSetProviderKey(provider.slug, () => setDraft(''));
  const clear = useClearProviderKey(provider.slug);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim()) save.mutate(draft);
  };
  const inputId = `key-${provider.slug}`;
  const address = useAddressOf(provider);
  return (
    <tr data-provider={provider.slug}>
      <th scope="row" className="provider-cell">
        <div>{provider.name}</div>
        <div className="muted mono small provider-url">{address}</div>
        <div className="muted small">
          wire format <span className="mono">{provider.wire_format}</span>
        </div>
      </th>
      <td>
        <KeyStatus provider={provider} />
        {provider.discovery ? <DiscoveryStatus provider={provider} discovery={provider.discovery} /> : null}
      </td>
      <td>
        {provider.needs_key ? (
          <form className="inline-form" onSubmit={onSubmit}>
            <label className="visually-hidden" htmlFor={inputId}>
              {provider.name} API key
            </label>
            <input
              id={inputId}
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={provider.key_set ? 'Replace key…' : 'Paste key…'}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
            />
            <button type="submit" disabled={!draft.trim() || save.isPending}>
              {save.isPending ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="secondary" disabled={!provider.key_set || clear.isPending} onClick={() => clear.mutate()}>
              Clear
            </button>
          </form>
        ) : (
          <span className="muted small">Runs on this machine</span>
        )}
        {needsAccount(provider) ? <ProviderAccount provider={provider} /> : null}
        {save.error ? <ErrorNotice error={save.error} title="Key not saved" /> : null}
        {clear.error ? <ErrorNotice error={clear.error} title="Key not cleared" /> : null}
      </td>
    </tr>
  );
}

export function ProviderKeysPanel({ secretStorage }: { secretStorage: { available: boolean; description: string } | undefined }) {
  const providers = useQuery(providersQuery());
  const discover = useDiscoverModels();
  return (
    <Panel
      title="Provider keys"
      aside={
        <button
          type="button"
          className="secondary"
          onClick={() => discover.mutate()}
          disabled={discover.isPending}
          title="Ask every provider with a key, and every local server, for its models"
        >
          {discover.isPending ? 'Asking providers…' : 'Refresh model lists'}
        </button>
      }
    >
      <p className="muted">
        Keys are write-only: once saved they are used by the gateway to call the provider and are never shown again, here or anywhere else in the app.
        {secretStorage ? ` Storage: ${secretStorage.description}.` : ''}
      </p>
      {secretStorage && !secretStorage.available ? (
        <div className="notice notice-warn" role="alert">
          Keys cannot be stored on this machine ({secretStorage.description}). Verdict refuses to keep them unencrypted.
        </div>
      ) : null}
      {providers.isPending ? <Loading what="providers" /> : null}
      {providers.error ? <ErrorNotice error={providers.error} title="Providers could not be loaded" /> : null}
      {providers.data ? (
        <table className="table">
          <ColumnHeads names={['Provider', 'Key', 'Set or clear']} />
          <tbody>
            {providers.data.map((p) => (
              <ProviderKeyRow key={p.slug} provider={p} />
            ))}
          </tbody>
        </table>
      ) : null}
    </Panel>
  );
}
