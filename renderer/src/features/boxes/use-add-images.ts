import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../transport/transport';
import { announce } from '../../ui/announcer';
import { readDataUrl } from '../../lib/read-file';

/** Images read and sent together: at most this many, and about this many bytes (base64 adds a third). */
const CHUNK_FILES = 24;
const CHUNK_BYTES = 6_000_000;
const FIRST_CHUNK = 10;

const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;

/**
 * Image files in order, cut into chunks by count and size as they are reached (the first is one
 * screen of the queue). Lazily: a file's type and size are read only when its chunk is next, since
 * reading them for a whole folder of thousands of files up front takes the browser most of a second.
 */
export function* chunksOf<T extends { size: number; type: string }>(files: readonly T[], first = FIRST_CHUNK): Generator<T[]> {
  let chunk: T[] = [];
  let bytes = 0;
  let limit = first;
  for (const f of files) {
    if (!IMAGE_TYPE.test(f.type)) continue;
    if (chunk.length > 0 && (chunk.length >= limit || bytes + f.size > CHUNK_BYTES)) {
      yield chunk;
      chunk = [];
      bytes = 0;
      limit = CHUNK_FILES;
    }
    chunk.push(f);
    bytes += f.size;
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * Adds picked images to a dataset (a new one when none is given), a few at a time, so a big folder
 * neither holds every file in memory at once nor sends one huge body; `onDataset` hears the
 * dataset's id as soon as the first chunk is stored, so the queue shows those while the rest arrive.
 */
export function useAddImages(onDataset: (id: string) => void) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<{ done: number; total: number } | null>(null);
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['boxes', 'items'] }), queryClient.invalidateQueries({ queryKey: ['boxes', 'datasets'] })]);
  const add = useMutation({
    mutationFn: async ({ files, datasetId, name }: { files: File[]; datasetId: string | null; name: string }) => {
      setAdding({ done: 0, total: files.length });
      let id = datasetId;
      let done = 0;
      for (const chunk of chunksOf(files)) {
        // Every file of a chunk is an image (chunksOf keeps only those).
        const images = await Promise.all(chunk.map(async (f) => ({ name: f.name, data_url: await readDataUrl(f) })));
        const dataset = await call('boxReview.addImages', { ...(id ? { dataset_id: id } : {}), name, images });
        const first = done === 0;
        done += chunk.length;
        setAdding({ done, total: files.length });
        if (id !== dataset.id) {
          id = dataset.id;
          onDataset(id);
          await refresh();
        } else if (first) await refresh();
      }
      if (done === 0) throw new Error('No PNG, JPEG, GIF or WebP image among the files picked.');
      announce(`Added ${done} image${done === 1 ? '' : 's'}.`);
    },
    onSettled: () => {
      setAdding(null);
      return refresh();
    },
  });
  return { add, adding };
}
