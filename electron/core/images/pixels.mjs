// The pixel work on images: decoding, EXIF rotation, re-encoding (sharp, which is libvips), and the
// simulated fleet's box statistics. Plain JavaScript so that a worker thread loads it as it is, from
// the source tree and from the bundle alike (image-worker.mjs); its types are in pixels.d.mts. Only
// the image pool (pool.ts) runs it, and only after limits.ts has checked the image's header: nothing
// here is handed more pixels than the limit it is given, and sharp is told that limit too.
import { Buffer } from 'node:buffer';
import sharp from 'sharp';

// Nothing kept between images (a server sees each image once), and one libvips thread an image:
// the pool's threads are what run images side by side.
sharp.cache(false);
sharp.concurrency(1);

/**
 * A JPEG turned upright (its EXIF orientation applied) and re-encoded at quality 92.
 * @param {{ base64: string, maxPixels: number }} image
 * @returns {Promise<{ base64: string, width: number, height: number }>}
 */
export async function upright({ base64, maxPixels }) {
  const { data, info } = await sharp(Buffer.from(base64, 'base64'), { limitInputPixels: maxPixels })
    .rotate()
    .jpeg({ quality: 92 })
    .toBuffer({ resolveWithObject: true });
  return { base64: data.toString('base64'), width: info.width, height: info.height };
}

/**
 * The simulated fleet's box baseline, from simple image statistics on the image as people see it:
 * the background is the mean colour of the four corners, and the box encloses every pixel that
 * differs from it clearly. No model. Null when the image cannot be decoded or nothing stands out.
 * @param {{ base64: string, maxPixels: number }} image
 * @returns {Promise<{ top: number, left: number, bottom: number, right: number, width: number, height: number } | null>}
 */
export async function foreground({ base64, maxPixels }) {
  let decoded;
  try {
    decoded = await sharp(Buffer.from(base64, 'base64'), { limitInputPixels: maxPixels }).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch {
    return null;
  }
  const { data } = decoded;
  const { width, height, channels } = decoded.info;
  const at = (x, y) => (y * width + x) * channels;
  const corners = [at(0, 0), at(width - 1, 0), at(0, height - 1), at(width - 1, height - 1)];
  const grey = channels < 3;
  const bg = [0, 1, 2].map((c) => corners.reduce((s, i) => s + data[i + (grey ? 0 : c)], 0) / 4);
  let top = height;
  let left = width;
  let bottom = -1;
  let right = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = at(x, y);
      const distance = grey ? 3 * Math.abs(data[i] - bg[0]) : Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]);
      if (distance > 90) {
        if (y < top) top = y;
        if (y > bottom) bottom = y;
        if (x < left) left = x;
        if (x > right) right = x;
      }
    }
  }
  if (bottom < 0) return null;
  return { top, left, bottom: bottom + 1, right: right + 1, width, height };
}
