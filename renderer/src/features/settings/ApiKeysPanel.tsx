import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ApiKeyInfo, ApiKeyKind } from '../../../../shared/schemas/inspector';
import { EmptyState, ErrorNotice, Loading, Panel } from '../../ui/components';
import { apiKeysQuery, useCreateApiKey, useRevokeApiKey } from './api';
import { formatUsd } from '../../../../shared/money/format-usd';
import { ColumnHeads } from '../../ui/ColumnHeads';

/** Keys callers use against this app's HTTP API. A new key's secret is shown once, right after creation. */
export function ApiKeysPanel() {
  const keys = useQuery(apiKeysQuery());
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ApiKeyKind>('standard');
  const [credit, setCredit] = useState('');
  const [rate, setRate] = useState('');
  const [created, setCreated] = useState<{ id: string; key: string } | null>(null);
  // Focus follows the key: to its one-time notice when made (the form's button is disabled with its
  // name cleared), and back to the name field when the notice is done with.
  const notice = useRef<HTMLDivElement>(null);
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (created) notice.current?.focus();
  }, [created]);
  const done = () => {
    setCreated(null);
    nameField.current?.focus();
  };
  const create = useCreateApiKey({ name, kind, credit, rate }, (made) => {
    setCreated(made);
    setName('');
    setCredit('');
    setRate('');
  });
  const revoke = useRevokeApiKey();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <Panel title="API server keys">
      <p className="muted">
        Callers of the HTTP API send one of these as <code>Authorization: Bearer &lt;key&gt;</code>. Management keys may also create and revoke keys. Only a
        hash of each key is stored.
      </p>
      <form className="inline-form" onSubmit={onSubmit}>
        <label htmlFor="new-key-name">Name</label>
        <input ref={nameField} id="new-key-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} placeholder="e.g. analytics job" />
        <label htmlFor="new-key-kind">Kind</label>
        <select id="new-key-kind" value={kind} onChange={(e) => setKind(e.target.value as ApiKeyKind)}>
          <option value="standard">standard</option>
          <option value="management">management</option>
        </select>
        <label htmlFor="new-key-credit">Credit (USD)</label>
        <input
          id="new-key-credit"
          type="number"
          min={0}
          step="any"
          size={6}
          value={credit}
          onChange={(e) => setCredit(e.target.value)}
          placeholder="no limit"
        />
        <label htmlFor="new-key-rate">Requests / minute</label>
        <input id="new-key-rate" type="number" min={1} step={1} size={6} value={rate} onChange={(e) => setRate(e.target.value)} placeholder="no limit" />
        <button type="submit" disabled={!name.trim() || create.isPending}>
          Create key
        </button>
      </form>
      {create.error ? <ErrorNotice error={create.error} title="Key not created" /> : null}
      {created ? (
        <div ref={notice} className="notice notice-ok" role="status" tabIndex={-1} aria-labelledby="created-key-title">
          <strong id="created-key-title">Copy this key now; it will not be shown again.</strong>
          <code className="secret-once" data-testid="created-api-key">
            {created.key}
          </code>
          <button type="button" className="secondary" onClick={done}>
            Done
          </button>
        </div>
      ) : null}
      {keys.isPending ? <Loading what="keys" /> : null}
      {keys.error ? <ErrorNotice error={keys.error} title="Keys could not be loaded" /> : null}
      {keys.data && keys.data.length === 0 ? <EmptyState title="No API keys">Create one above to call the HTTP API.</EmptyState> : null}
      {keys.data && keys.data.length > 0 ? <ApiKeyTable keys={keys.data} onRevoke={revoke.mutate} /> : null}
    </Panel>
  );
}

/** The keys made, with what each has spent and may spend, when it was last used, and a way to revoke it. */
function ApiKeyTable({ keys, onRevoke }: { keys: ApiKeyInfo[]; onRevoke: (id: string) => void }) {
  return (
    <table className="table" aria-label="API server keys">
      <ColumnHeads names={['Name', 'Key', 'Kind', 'Created', 'Spent', 'Rate limit', 'Last used', 'State']} />
      <tbody>
        {keys.map((k) => (
          <tr key={k.id}>
            <th scope="row">{k.name}</th>
            <td className="mono small">{k.label}</td>
            <td>{k.kind}</td>
            <td className="small">{new Date(k.created_at).toLocaleString()}</td>
            <td className="small">
              {formatUsd(k.spent)}
              {k.credit_limit !== null ? ` of ${formatUsd(k.credit_limit)}` : ''}
            </td>
            <td className="small">{k.rate_limit_rpm !== null ? `${k.rate_limit_rpm}/min` : <span className="muted">none</span>}</td>
            <td className="small">{k.last_used_at ? new Date(k.last_used_at).toLocaleString() : <span className="muted">never</span>}</td>
            <td>
              {k.revoked_at ? (
                <span className="badge badge-muted">revoked</span>
              ) : (
                <button type="button" className="secondary" onClick={() => onRevoke(k.id)} aria-label={`Revoke ${k.name}`}>
                  Revoke
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
