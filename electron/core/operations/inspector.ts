import type { HandlerDeps, Handlers } from './index';

type InspectorOps = Pick<Handlers, 'sets.list' | 'sets.get' | 'sets.save' | 'sets.delete' | 'sets.restore' | 'runs.start' | 'runs.get' | 'runs.cancel' | 'runs.list'>;

/** Question sets and runs: what analysts compose, run and compare. */
export function inspectorHandlers(core: HandlerDeps): InspectorOps {
  return {
    'sets.list': async () => core.questionSets.list(),
    'sets.get': async ({ id }) => core.questionSets.get(id),
    'sets.save': async (input) => core.questionSets.save(input),
    'sets.delete': async ({ id }) => core.questionSets.delete(id),
    'sets.restore': async ({ id }) => core.questionSets.restore(id),
    'runs.start': async ({ request, set_id, label }) => core.runs.start(request, set_id ?? null, label ?? null),
    'runs.get': async ({ id }) => core.runs.get(id),
    'runs.cancel': async ({ id }) => core.runs.cancel(id),
    'runs.list': async (filters) => core.runs.list(filters),
  };
}
