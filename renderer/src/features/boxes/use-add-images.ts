import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../transport/transport';
import { imagesFrom } from '../question-sets/StateEditor';

/** Images read and sent together: at most this many, and about this many bytes (base64 adds a third). */
const CHUNK_FILES = 24;
const CHUNK_BYTES = 6_000_000;
const FIRST_CHUNK = 10;

const IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;

/** Files in order, cut into chunks by count and size; the first is one screen of the queue. */
export function chunksOf<T extends { size: number }>(files: readonly T[], first = FIRST_CHUNK): T[][] {
  const out: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const f of files) {
    const limit = out.length === 0 ? first : CHUNK_FILES;
    if (chunk.length > 0 && (chunk.length >= limit || bytes + f.size > CHUNK_BYTES)) {
      out.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(f);
    bytes += f.size;
  }
  if (chunk.length > 0) out.push(chunk);
  return out;
}

/**
 * Adds picked images to a dataset (a new one when none is given), a few at a time, so a big folder
 * neither holds every file in memory at once nor sends one huge body; `onDataset` hears the
 * dataset's id as soon as the first chunk is stored, so the queue shows those while the rest arrive.
 */
export function useAddImages(onDataset: (id: string) => void) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<{ done: number; total: number } | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: ['boxes', 'items'] }), queryClient.invalidateQueries({ queryKey: ['boxes', 'datasets'] })]);
  const add = useMutation({
    mutationFn: async ({ files, datasetId, name }: { files: File[]; datasetId: string | null; name: string }) => {
      const images = files.filter((f) => IMAGE_TYPE.test(f.type));
      if (images.length === 0) throw new Error('No PNG, JPEG, GIF or WebP image among the files picked.');
      setAdding({ done: 0, total: images.length });
      let id = datasetId;
      let done = 0;
      for (const chunk of chunksOf(images)) {
        const read = await imagesFrom(chunk);
        const dataset = await call('boxReview.addImages', { ...(id ? { dataset_id: id } : {}), name, images: read.map((img) => ({ name: img.name, data_url: img.dataUrl })) });
        done += chunk.length;
        setAdding({ done, total: images.length });
        if (id !== dataset.id) {
          id = dataset.id;
          onDataset(id);
          await refresh();
        } else if (done === chunk.length) await queryClient.invalidateQueries({ queryKey: ['boxes', 'items'] });
      }
    },
    onSettled: () => {
      setAdding(null);
      return refresh();
    },
  });
  return { add, adding };
}
