import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProviderPreferences } from '../../../../shared/schemas/provider-preferences';
import { ErrorNotice, Loading } from '../../ui/components';
import { planQuery } from './api';

const SORTS = ['', 'price', 'latency', 'throughput', 'exacto'] as const;

/** "Why this provider": the order the router would try for these preferences, with each reason. */
export function RoutePreview({ model }: { model: string }) {
  const [sort, setSort] = useState<(typeof SORTS)[number]>('');
  const [zdr, setZdr] = useState(false);
  const [deny, setDeny] = useState(false);
  const [order, setOrder] = useState('');
  const preferences: ProviderPreferences = {};
  if (sort) preferences.sort = sort;
  if (zdr) preferences.zdr = true;
  if (deny) preferences.data_collection = 'deny';
  const orderList = order
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (orderList.length > 0) preferences.order = orderList;
  const plan = useQuery(planQuery(model, Object.keys(preferences).length > 0 ? preferences : undefined));
  return (
    <div>
      <div className="toolbar">
        <label htmlFor="route-sort">Sort</label>
        <select id="route-sort" value={sort} onChange={(e) => setSort(e.target.value as (typeof SORTS)[number])}>
          {SORTS.map((s) => (
            <option key={s} value={s}>
              {s || 'none (load balance)'}
            </option>
          ))}
        </select>
        <label>
          <input type="checkbox" checked={zdr} onChange={(e) => setZdr(e.target.checked)} /> zdr
        </label>
        <label>
          <input type="checkbox" checked={deny} onChange={(e) => setDeny(e.target.checked)} /> data_collection: deny
        </label>
        <label htmlFor="route-order">Order</label>
        <input id="route-order" placeholder="slugs, comma-separated" value={order} onChange={(e) => setOrder(e.target.value)} />
      </div>
      {plan.isPending ? <Loading what="the plan" /> : null}
      {plan.error ? <ErrorNotice error={plan.error} title="No route" /> : null}
      {plan.data ? (
        <>
          <p className="muted small">
            Strategy: <strong>{plan.data.strategy}</strong>
            {plan.data.strategy === 'load-balance' ? ' — the first place is drawn at random, weighted by 1/price²; this is one draw.' : ''}
          </p>
          <ol className="route-list" aria-label="Route">
            {plan.data.attempts.map((a) => (
              <li key={a.tag}>
                <strong>{a.provider_name}</strong> <span className="mono small">{a.tag}</span> <span className="muted">— {a.reason}</span>
              </li>
            ))}
          </ol>
          {plan.data.excluded.length > 0 ? (
            <>
              <h3 className="small-heading">Excluded</h3>
              <ul className="route-list excluded" aria-label="Excluded endpoints">
                {plan.data.excluded.map((a) => (
                  <li key={a.tag}>
                    <strong>{a.provider_name}</strong> <span className="muted">— {a.reason}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
