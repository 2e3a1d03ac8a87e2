// A worker thread of the image pool (pool.ts): its tasks run here, off the server's event loop.
import { foreground, upright } from './pixels.mjs';

/** @param {{ kind: 'upright' | 'foreground', base64: string, maxPixels: number }} task */
export default function run(task) {
  return task.kind === 'upright' ? upright(task) : foreground(task);
}
