import type { WireFormat } from '../../../shared/schemas/inspector';
import type { Capabilities } from './capabilities';
import type { DecisionHost } from './decision-host';
import type { ModelLister } from './listing';
import type { ProviderAdapter } from './types';

/**
 * Everything Verdict knows of one wire format, assembled in its folder's index.ts: how to call it,
 * what a provider's model accepts, the host row of a family that answers Decisions itself, and how
 * to read a provider's own model listing. registry.ts is the one table of them.
 */
export interface WireModule {
  wireFormat: WireFormat;
  adapter: ProviderAdapter;
  /** What a provider's model accepts on this wire (a chat folder's capabilities.ts; the generic row for native hosts). */
  capabilities(provider: string, model: string): Capabilities;
  /** A family that answers Decisions itself: each host's row (hosts.ts); absent for chat APIs. */
  host?: (provider: { slug: string; name: string }, model: string) => DecisionHost;
  /** Reads a provider's own model listing, for discovery; absent where the wire has none. */
  listModels?: ModelLister;
}
