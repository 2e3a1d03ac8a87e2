import { queryOptions } from '@tanstack/react-query';
import type { Box } from '../../../../shared/schemas/answer';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';
import type { BoxQuestion } from './review';

export const BOXES_KEY = ['boxes', 'items'] as const;

/** The review list without images: each item's data_url is '' (see boxImageQuery), so it stays small. */
export const boxItemsQuery = () => queryOptions({ queryKey: BOXES_KEY, queryFn: () => call('boxes.list', { images: false }) });

/** One item's image, kept a short while after it leaves the screen. */
export const boxImageQuery = (id: string) => queryOptions({ queryKey: ['boxes', 'image', id], queryFn: async () => (await call('boxes.image', { id })).data_url, staleTime: Infinity, gcTime: 30_000 });

/** An item as the list keeps it: without its image. */
export const withoutImage = (item: BoxItem): BoxItem => ({ ...item, data_url: '' });

/**
 * Asks the model every box question about one image in one request, waits for the run, and stores
 * the answers by question (a verdict given before turns stale). Returns the failure, if any.
 */
export async function runItem(item: BoxItem, model: string, questions: readonly BoxQuestion[]): Promise<{ item: BoxItem | null; failure: string | null }> {
  const { data_url } = await call('boxes.image', { id: item.id });
  const started = await call('runs.start', {
    request: { model, state: [{ type: 'image_url', image_url: { url: data_url } }], questions: Object.fromEntries(questions.map((q) => [q.name, { type: 'box' as const, instructions: q.instructions }])) },
    label: `box: ${item.name}`,
  });
  let current = started;
  while (current.status === 'running') {
    await new Promise((r) => setTimeout(r, 250));
    current = await call('runs.get', { id: started.id });
  }
  const got = (current.response as { answers?: Record<string, { type: string; box?: Box }> } | null)?.answers ?? {};
  const answers: Record<string, Box> = {};
  for (const q of questions) {
    const a = got[q.name];
    if (a?.type === 'box' && a.box) answers[q.name] = a.box;
  }
  if (Object.keys(answers).length === 0) return { item: null, failure: `${item.name}: ${current.error?.message ?? 'no box'}` };
  const first = answers[questions[0]!.name] ?? Object.values(answers)[0]!;
  const updated = await call('boxes.update', { id: item.id, answers, answer: first, model, run_id: current.id });
  const missing = questions.filter((q) => !(q.name in answers)).map((q) => q.name);
  return { item: withoutImage(updated), failure: missing.length > 0 ? `${item.name}: no box for ${missing.join(', ')}` : null };
}
