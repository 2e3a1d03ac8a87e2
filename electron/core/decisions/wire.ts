/**
 * Reaching the upstreams, wired: HTTP, the image pool (the engine's and the simulated fleet's) and
 * what endpoints refused before, read back at start.
 */
import { LearnedCapabilities } from '../catalog/learned';
import type { Clock } from '../clock';
import { ImagePool } from '../images/pool';
import type { ProviderKeys } from '../keys/provider-keys';
import { UpstreamHttp } from '../providers/http';
import type { Storage } from '../store/ports';
import { Upstreams } from './upstreams';

export async function wireUpstreams(deps: {
  storage: Pick<Storage, 'refusals'>;
  clock: Clock;
  providerKeys: ProviderKeys;
  /** The account id the user gave a provider whose address holds one (Cloudflare's). */
  accountOf: (slug: string) => string | undefined;
}): Promise<{ http: UpstreamHttp; images: ImagePool; upstreams: Upstreams }> {
  const { clock } = deps;
  const http = new UpstreamHttp(clock);
  // Decoding, rotating and re-encoding images, for the engine and the simulated fleet, off this thread.
  const images = new ImagePool();
  const learned = await LearnedCapabilities.open(deps.storage.refusals, clock);
  const upstreams = new Upstreams({ http, providerKeys: deps.providerKeys, clock, learned, accountOf: deps.accountOf });
  return { http, images, upstreams };
}
