/**
 * What requests will cost, wired: the cost model over the catalog, routing and the upstreams, with
 * the simulated fleet's scripted figures for its own endpoints while it is on.
 */
import type { Catalog } from '../catalog/catalog';
import type { Upstreams } from '../decisions/upstreams';
import type { Router } from '../routing/router';
import type { SandboxLifecycle } from '../sandbox/lifecycle';
import { CostModel } from './cost-model';

export function wireCosts(deps: { catalog: Catalog; router: Router; upstreams: Upstreams; sandbox: Pick<SandboxLifecycle, 'current'> }): CostModel {
  const { catalog, router, upstreams, sandbox } = deps;
  return new CostModel({
    catalog,
    router,
    upstreams,
    scripted: (endpoint) => (endpoint.provider.simulated ? (sandbox.current()?.fare(endpoint.provider.slug) ?? null) : null),
  });
}
