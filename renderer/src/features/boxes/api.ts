import { queryOptions } from '@tanstack/react-query';
import type { BoxItem, TruthBox } from '../../../../shared/schemas/inspector';
import { call } from '../../transport/transport';

/**
 * What the Boxes screen reviews: a dataset of images (its expected box answers are the truth, one
 * evaluation run's answers are under review), or the images added to Boxes before it kept datasets.
 */
export type BoxSource = { kind: 'dataset'; dataset_id: string; run_id: string | null; variant: number } | { kind: 'legacy' };

export const LEGACY: BoxSource = { kind: 'legacy' };

/** Query key of a source's review list. */
export const itemsKey = (source: BoxSource) =>
  source.kind === 'legacy' ? (['boxes', 'items', 'legacy'] as const) : (['boxes', 'items', source.dataset_id, source.run_id, source.variant] as const);

/** The review list without images: each item's data_url is '' (see boxImageQuery), so it stays small. */
export const boxItemsQuery = (source: BoxSource) =>
  queryOptions({
    queryKey: itemsKey(source),
    queryFn: () =>
      source.kind === 'legacy'
        ? call('boxes.list', { images: false })
        : call('boxReview.items', { dataset_id: source.dataset_id, run_id: source.run_id, variant: source.variant }),
  });

/** Datasets whose items are images, newest first. */
export const imageDatasetsQuery = () => queryOptions({ queryKey: ['boxes', 'datasets'], queryFn: () => call('boxReview.datasets', {}) });

/** Fetches one item's image (a data: URL). */
export async function imageOf(source: BoxSource, id: string): Promise<string> {
  return source.kind === 'legacy'
    ? (await call('boxes.image', { id })).data_url
    : (await call('boxReview.image', { dataset_id: source.dataset_id, position: Number(id) })).data_url;
}

/** One item's image, kept a short while after it leaves the screen. */
export const boxImageQuery = (source: BoxSource, id: string) =>
  queryOptions({
    queryKey: ['boxes', 'image', source.kind === 'legacy' ? 'legacy' : source.dataset_id, id],
    queryFn: () => imageOf(source, id),
    staleTime: Infinity,
    gcTime: 30_000,
  });

export interface ItemPatch {
  id: string;
  truth?: TruthBox[];
  verdict?: BoxItem['verdict'];
  note?: string;
}

/** Writes truth (a dataset item's expected boxes), or a verdict and note on the answers under review. */
export async function updateItem(source: BoxSource, patch: ItemPatch): Promise<BoxItem> {
  const { id, ...rest } = patch;
  const item =
    source.kind === 'legacy'
      ? await call('boxes.update', patch)
      : await call('boxReview.update', { dataset_id: source.dataset_id, position: Number(id), run_id: source.run_id, variant: source.variant, ...rest });
  return withoutImage(item);
}

/** An item as the list keeps it: without its image. */
export const withoutImage = (item: BoxItem): BoxItem => ({ ...item, data_url: '' });
