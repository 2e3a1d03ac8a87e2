import type { Endpoint } from '../../../../shared/schemas/endpoint';
import type { OperationOutput } from '../../../../shared/contract/operations';
import type { EndpointDetail } from '../../../../shared/schemas/inspector';

const priceOf = (value: string): number | null => (value === '-1' ? null : Number(value));
const best = (values: (number | null | undefined)[], pick: (...v: number[]) => number): number | null => {
  const known = values.filter((v): v is number => typeof v === 'number');
  return known.length === 0 ? null : pick(...known);
};

function change(before: number | null, after: number | null, format: (v: number | null) => string): string {
  if (before === null && after === null) return 'not measured';
  if (before === null || after === null) return `${format(before)} → ${format(after)}`;
  const delta = before === 0 ? 0 : ((after - before) / before) * 100;
  return `${format(before)} → ${format(after)} (${delta >= 0 ? '+' : ''}${delta.toFixed(0)}%)`;
}

/** What 1,000 requests like the user's cost for one model, as the core's cost model prices them. */
export type ZdrCost = OperationOutput<'usage.zdr_cost'>[number];

/** One model's figures over all its endpoints and over its ZDR ones alone (each pair is [all, ZDR only]). */
export interface ZdrRow {
  id: string;
  name: string;
  all: number;
  kept: Endpoint[];
  /** null when the model has no traffic here and no tokens were typed */
  cost: ZdrCost | null;
  perThousand: readonly [number | null, number | null];
  list: readonly [number | null, number | null];
  unknown: number;
  coverage: number | null;
  input: readonly [number | null, number | null];
  output: readonly [number | null, number | null];
  latency: readonly [number | null, number | null];
  throughput: readonly [number | null, number | null];
}

/** A model's listing, what its endpoints' details say of their ZDR status, and the traffic it is priced on. */
export interface ModelEndpoints {
  model: { id: string; name: string; endpoints: Endpoint[] };
  details: readonly Pick<EndpointDetail, 'tag' | 'zdr'>[];
  cost: ZdrCost | null;
}

/** The impact of zdr: true on one model: which endpoints stay (by `model_id|tag`), and each figure before and after. */
export function zdrRow({ model, details, cost }: ModelEndpoints, zdrTags: ReadonlySet<string>): ZdrRow {
  const all = model.endpoints;
  const kept = all.filter((e) => zdrTags.has(`${e.model_id}|${e.tag}`));
  const pair = (pick: (e: Endpoint) => number | null | undefined, better: (...v: number[]) => number) =>
    [best(all.map(pick), better), best(kept.map(pick), better)] as const;
  return {
    id: model.id,
    name: model.name,
    all: all.length,
    kept,
    cost,
    perThousand: [cost?.now?.usd ?? null, cost?.zdr?.usd ?? null] as const,
    list: [cost?.list_now ?? null, cost?.list_zdr ?? null] as const,
    unknown: all.filter((e) => details.find((d) => d.tag === e.tag)?.zdr === null).length,
    coverage: all.length === 0 ? null : (100 * kept.length) / all.length,
    input: pair((e) => priceOf(e.pricing.prompt), Math.min),
    output: pair((e) => priceOf(e.pricing.completion), Math.min),
    latency: pair((e) => e.latency_last_30m?.p50, Math.min),
    throughput: pair((e) => e.throughput_last_30m?.p50, Math.max),
  };
}

export type SortKey = 'model' | 'kept' | 'unknown' | 'coverage' | 'input' | 'output' | 'latency' | 'throughput' | 'traffic';
export type Sort = { key: SortKey; dir: 1 | -1 };
const SORTS: Record<SortKey, (r: ZdrRow) => number | string | null> = {
  model: (r) => r.name,
  traffic: (r) => r.perThousand[1],
  kept: (r) => r.kept.length,
  unknown: (r) => r.unknown,
  coverage: (r) => r.coverage,
  input: (r) => r.input[1],
  output: (r) => r.output[1],
  latency: (r) => r.latency[1],
  throughput: (r) => r.throughput[1],
};

/** The rows sorted by one figure; unknown figures last either way. */
export function sortRows(rows: readonly ZdrRow[], sort: Sort): ZdrRow[] {
  return [...rows].sort((a, b) => {
    const va = SORTS[sort.key](a);
    const vb = SORTS[sort.key](b);
    if (va === null && vb === null) return 0;
    if (va === null) return 1;
    if (vb === null) return -1;
    return (va < vb ? -1 : va > vb ? 1 : 0) * sort.dir;
  });
}

/** The all-endpoints → ZDR-only impact of one figure, or what is left when no endpoint is ZDR. */
export const impact = (r: ZdrRow, pair: readonly [number | null, number | null], format: (v: number | null) => string) =>
  r.kept.length === 0 ? `${format(pair[0])} → none` : change(pair[0], pair[1], format);
