/**
 * What zero data retention would cost: per model, 1,000 requests of the user's own mean tokens (or
 * of the typed tokens where a model has no traffic here), priced by the cost model as routing sends
 * them now and with ZDR required, with the cheapest list price of each route and what the user's
 * requests did cost beside. A request is priced as one call of its tokens: where the user's requests
 * made several calls that read a cache, the measured figure beside it is lower. They are walked at
 * the pace the user's requests went at where it was measured (`paces`: how the model's evaluation
 * items went), as the faults' 30 s cover more or fewer of them with it.
 */
import type { TrafficProfile } from '../runs/traffic';
import type { Catalog } from '../catalog/catalog';
import type { CostModel, Pace, RunCost } from './cost-model';
import { listPricePerThousand } from './price';

interface Deps {
  catalog: Catalog;
  costs: CostModel;
}

type Range = { usd: number; low: number; high: number; rate: string };

const range = (c: RunCost): Range | null =>
  c.usd === null || c.low === null || c.high === null ? null : { usd: c.usd, low: c.low, high: c.high, rate: c.rate };

const cheapest = (values: (number | null)[]) => {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.min(...known) : null;
};

export function zdrCosts(
  deps: Deps,
  traffic: { models: TrafficProfile[] },
  typed: { input_tokens: number; output_tokens: number } | null,
  paces: ReadonlyMap<string, Pace> = new Map(),
) {
  const out = [];
  for (const model of deps.catalog.listModels()) {
    const own = traffic.models.find((m) => m.model === model.id);
    if (!own && !typed) continue;
    const tokens = own ? { input: own.input_tokens, output: own.output_tokens } : { input: typed!.input_tokens, output: typed!.output_tokens };
    const endpoints = deps.catalog.endpointsOf(model.id);
    if (endpoints.length === 0) continue;
    const zdrEndpoints = endpoints.filter((e) => e.provider.data_policy.zdr === true);
    const pace = own ? paces.get(model.id) : undefined;
    const now = deps.costs.perThousand(model.id, tokens, undefined, pace);
    const zdr = zdrEndpoints.length > 0 ? deps.costs.perThousand(model.id, tokens, { zdr: true }, pace) : null;
    out.push({
      model: model.id,
      traffic: {
        source: own ? ('measured' as const) : ('typed' as const),
        requests: own?.requests ?? null,
        input_tokens: tokens.input,
        output_tokens: tokens.output,
      },
      now: range(now),
      zdr: zdr === null ? null : range(zdr),
      list_now: cheapest(endpoints.map((e) => listPricePerThousand(e.prices, tokens))),
      list_zdr: cheapest(zdrEndpoints.map((e) => listPricePerThousand(e.prices, tokens))),
      measured: own?.cost_usd == null ? null : 1000 * own.cost_usd,
    });
  }
  return out;
}
