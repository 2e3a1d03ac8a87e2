import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { actorLabel } from '../../../../shared/audit/actor-label';
import type { AuditEntry, AuditTargetKind } from '../../../../shared/schemas/audit';
import { EmptyState, ErrorNotice, Loading, Panel } from '../../ui/components';
import { auditQuery } from './api';
import { ColumnHeads } from '../../ui/ColumnHeads';

const PAGE = 25;

const WHAT: Record<AuditEntry['action'], string> = {
  'key.create': 'created key',
  'key.update_limits': 'changed limits of key',
  'key.revoke': 'revoked key',
  'set.create': 'created set',
  'set.update': 'changed set',
  'set.delete': 'deleted set',
  'set.restore': 'restored set',
  'dataset.import': 'imported dataset',
  'dataset.create': 'created dataset',
  'dataset.update': 'changed dataset',
  'dataset.delete': 'deleted dataset',
  'cascade_preset.save': 'saved cascade preset',
  'cascade_preset.delete': 'deleted cascade preset',
  'capture.create': 'created capture rule',
  'capture.delete': 'removed capture rule',
  'capture.expire': 'deleted expired captures of rule',
};

const who = actorLabel;

/** A detail value as a person reads it: limits as "$5 → none", anything else as compact JSON. */
function detailText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => {
      if (value && typeof value === 'object' && 'before' in value && 'after' in value) {
        const { before, after } = value as { before: unknown; after: unknown };
        return `${name}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`;
      }
      return `${name}: ${JSON.stringify(value)}`;
    })
    .join('\n');
}

/**
 * Who created, changed or revoked keys, limits, sets and datasets, newest first, a page at a time.
 * Each person who signs in with their own management key appears by its name.
 */
export function AuditLogPanel() {
  const [offset, setOffset] = useState(0);
  const [target, setTarget] = useState<AuditTargetKind | ''>('');
  const page = useQuery({ ...auditQuery({ offset, limit: PAGE, ...(target ? { target_kind: target } : {}) }), placeholderData: keepPreviousData });
  const total = page.data?.total ?? 0;
  return (
    <Panel
      title="Audit log"
      aside={
        <label className="small">
          Show{' '}
          <select
            value={target}
            onChange={(e) => {
              setTarget(e.target.value as AuditTargetKind | '');
              setOffset(0);
            }}
          >
            <option value="">everything</option>
            <option value="key">keys</option>
            <option value="set">question sets</option>
            <option value="dataset">datasets</option>
            <option value="cascade_preset">cascade presets</option>
            <option value="capture">capture rules</option>
          </select>
        </label>
      }
    >
      <p className="muted">
        Who created, changed or revoked keys, limits, question sets, datasets and cascade presets. Entries are never changed; no key's secret is in them.
      </p>
      {page.isPending ? <Loading what="the audit log" /> : null}
      {page.error ? <ErrorNotice error={page.error} title="The audit log could not be loaded" /> : null}
      {page.data && page.data.entries.length === 0 ? (
        <EmptyState title="Nothing recorded yet">Changes to keys, sets and datasets appear here.</EmptyState>
      ) : null}
      {page.data && page.data.entries.length > 0 ? (
        <>
          <table className="table" aria-label="Audit log">
            <ColumnHeads names={['When', 'Who', 'What', 'Target', 'Details']} />
            <tbody>
              {page.data.entries.map((e) => (
                <tr key={e.id}>
                  <td className="small">{new Date(e.at).toLocaleString()}</td>
                  <td title={e.actor.kind === 'management_key' ? `management key ${e.actor.key_id}` : undefined}>{who(e.actor)}</td>
                  <td>{WHAT[e.action]}</td>
                  <th scope="row">
                    {e.target.name} <span className="muted mono small">{e.target.id}</span>
                  </th>
                  <td className="audit-details">{detailText(e.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="pager">
            <button type="button" className="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </button>
            <span className="small muted">
              {offset + 1}–{offset + page.data.entries.length} of {total}
            </span>
            <button type="button" className="secondary" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>
              Older
            </button>
          </div>
        </>
      ) : null}
    </Panel>
  );
}
