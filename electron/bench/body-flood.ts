import { PNG } from 'pngjs';
import { peakRssMiB } from './proc';
import { atMost, fmt, row, type BenchRow } from './report';

/**
 * "Whatever the images": callers who all send the largest image the default body limit lets
 * through, at once. What the gateway's memory comes to then is bounded by its body memory
 * (server/body-memory.ts), not by how many callers there are; docs/DEPLOY.md states the ceiling
 * this checks.
 */

/** Callers at once. */
export const FLOOD_CALLERS = 40;
/** The ceiling docs/DEPLOY.md states for the default `--body-memory`, whatever arrives. */
export const FLOOD_CEILING_MIB = 700;

/** An RGBA PNG of noise (it does not compress), so its base64 is about `mb` megabytes. */
function noisePng(mb: number): string {
  const pixels = Math.floor((mb * 1024 * 1024 * 3) / 4 / 4);
  const side = Math.floor(Math.sqrt(pixels));
  const png = new PNG({ width: side, height: side });
  let seed = 11;
  for (let i = 0; i < png.data.length; i += 1) png.data[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16;
  return `data:image/png;base64,${PNG.sync.write(png, { deflateLevel: 1 }).toString('base64')}`;
}

/** A gateway of its own gets FLOOD_CALLERS box questions on a 15 MB image at once; its peak RSS against the ceiling. */
export async function floodRows(
  start: () => Promise<{ gatewayUrl: string; auth: Record<string, string>; pid: number; stop(): Promise<void> }>,
): Promise<BenchRow[]> {
  const image = noisePng(15);
  const body = JSON.stringify({
    model: 'bench/vision',
    state: [{ type: 'image_url', image_url: { url: image } }],
    questions: { parcel: { type: 'box', instructions: 'the parcel' } },
  });
  const gateway = await start();
  try {
    process.stdout.write(`body flood: ${FLOOD_CALLERS} callers, ${fmt(body.length / 1024 / 1024, 1)} MB each…\n`);
    const began = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: FLOOD_CALLERS }, () =>
        fetch(gateway.gatewayUrl, { method: 'POST', headers: { ...gateway.auth, 'content-type': 'application/json' }, body }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    const seconds = (performance.now() - began) / 1000;
    const failed = statuses.filter((s) => s !== 200).length;
    if (failed > 0) throw new Error(`body flood: ${failed} of ${FLOOD_CALLERS} requests failed (${[...new Set(statuses)].join(', ')})`);
    const rss = peakRssMiB(gateway.pid);
    return [
      row(
        `(d) whatever the images: ${FLOOD_CALLERS} callers each send a box question on a ${fmt(body.length / 1024 / 1024, 1)} MB image at once (all answered, in ${fmt(seconds, 1)} s): gateway peak RSS, default --body-memory`,
        `${fmt(rss, 0)} MiB`,
        atMost(FLOOD_CEILING_MIB, ' MiB (docs/DEPLOY.md)', rss),
      ),
    ];
  } finally {
    await gateway.stop();
  }
}
