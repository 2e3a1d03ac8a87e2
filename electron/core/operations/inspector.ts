import type { HandlerDeps, Handlers } from './index';

type InspectorOps = Pick<
  Handlers,
  | 'sets.list'
  | 'sets.get'
  | 'sets.save'
  | 'sets.delete'
  | 'sets.restore'
  | 'runs.start'
  | 'runs.get'
  | 'runs.cancel'
  | 'runs.list'
  | 'boxes.list'
  | 'boxes.add'
  | 'boxes.update'
  | 'boxes.remove'
>;

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
    'boxes.list': async () => core.boxItems.list(),
    'boxes.add': async ({ name, data_url }) => core.boxItems.add(name, data_url),
    'boxes.update': async ({ id, ...patch }) => core.boxItems.update(id, patch),
    'boxes.remove': async ({ id }) => core.boxItems.remove(id),
  };
}
