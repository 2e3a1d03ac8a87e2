import type * as ImageSize from 'image-size';
import { onFirstUse } from '../on-first-use';

const imageSizeModule = onFirstUse<typeof ImageSize>('image-size');

/**
 * image-size on bytes of their own. A small Buffer shares Node's 8 KB pool, and image-size's readers
 * look past the view into its neighbours: three bytes of zeros read as a 29,793 × 29,557 TGA on Node
 * 24. A view onto part of a larger buffer is copied first, so reading past the end throws as it
 * should; a buffer of its own is read as it is.
 */
export function imageSize(input: Uint8Array): ReturnType<typeof ImageSize.imageSize> {
  const own = input.byteOffset === 0 && input.byteLength === input.buffer.byteLength ? input : Uint8Array.from(input);
  return imageSizeModule().imageSize(own);
}
