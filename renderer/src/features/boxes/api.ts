import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { BoxItem, TruthBox } from '../../../../shared/schemas/inspector';
import { baseName, stem } from '../../../../shared/box-formats/types';
import { call } from '../../transport/transport';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import { evalKeys } from '../evaluations';
import { truthFromFiles } from './transfer';

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

/** Writes truth, a verdict or a note on the source's item, and puts the item written in its place in the list. */
export function useUpdateItem(source: BoxSource | null, replace: (item: BoxItem) => void) {
  return useMutation({ mutationFn: (patch: ItemPatch) => updateItem(source!, patch), onSuccess: replace });
}

/** Removes an image added before Boxes kept datasets. */
export function useRemoveImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('boxes.remove', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: itemsKey(LEGACY) }),
  });
}

/** Sends one image again through the run under review: its model's answer, or every model's. */
export function useRunOnImage(target: { datasetId: string | null; position: number; runId: string | undefined; variant: number }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (every: boolean) =>
      call('boxReview.runImage', {
        dataset_id: target.datasetId!,
        position: target.position,
        run_id: target.runId!,
        ...(every ? {} : { variants: [target.variant] }),
      }),
    onSuccess: (started) => {
      // The run is running again: its progress is polled, and the queue follows it to its end.
      queryClient.setQueryData<EvalRun[]>(evalKeys.runs, (old) => old?.map((r) => (r.id === started.id ? started : r)));
      return queryClient.invalidateQueries({ queryKey: evalKeys.runs });
    },
  });
}

/**
 * Reads truth files (COCO, Label Studio, CSV, YOLO) and writes each matching image's truth, by file
 * name without extension; `onLabels` hears every label the files name, `onImported` what was done.
 */
export function useImportTruth(options: {
  list: readonly BoxItem[];
  source: BoxSource | null;
  replace: (item: BoxItem) => void;
  onLabels: (labels: ReadonlySet<string>) => void;
  onImported: (message: string) => void;
}) {
  const { list, source, replace, onLabels, onImported } = options;
  return useMutation({
    mutationFn: async (files: FileList) => {
      const read = await Promise.all([...files].map(async (f) => ({ name: f.webkitRelativePath || f.name, text: await f.text() })));
      const byStem = truthFromFiles(read);
      const targets = list.filter((i) => byStem.has(stem(baseName(i.name))));
      for (const item of targets) replace(await updateItem(source!, { id: item.id, truth: byStem.get(stem(baseName(item.name)))!.slice(0, 50) }));
      const unmatched = byStem.size - new Set(targets.map((i) => stem(baseName(i.name)))).size;
      onLabels(new Set([...byStem.values()].flat().map((b) => b.label)));
      onImported(
        `Truth for ${targets.length} image${targets.length === 1 ? '' : 's'} imported${unmatched > 0 ? `; ${unmatched} image${unmatched === 1 ? '' : 's'} in the files are not loaded here` : ''}.`,
      );
    },
  });
}
