import { ACCOUNT_PLACEHOLDER, withAccount } from '../catalog/bundled-providers';
import type { LearnedCapabilities, Refusal } from '../catalog/learned';
import type { CatalogEndpoint } from '../catalog/types';
import type { CancelSignal } from '../cancel';
import type { Clock } from '../clock';
import type { ProviderKeys } from '../keys/provider-keys';
import { withoutLearned, type Capabilities } from '../providers/capabilities';
import type { UpstreamHttp } from '../providers/http';
import { WIRES } from '../providers/registry';
import type { CallContext, ChatRequest, ChatResult, DecideResult, NativeAsk, ProviderAdapter, Target, UpstreamUsage } from '../providers/types';
import { UpstreamError } from '../providers/upstream-error';

export interface UpstreamsDeps {
  http: UpstreamHttp;
  providerKeys: ProviderKeys;
  clock: Clock;
  learned: LearnedCapabilities;
  /** The user's account id for a provider whose address names it (settings); not a secret. */
  accountOf: (provider: string) => string | undefined;
}

export interface CallHooks {
  /** The provider has read the whole prompt (its first output token arrived). */
  onFirstToken?: (() => void) | undefined;
  /** A failed call that was still billed (a refusal, an exhausted budget). */
  onBilled?: (usage: UpstreamUsage) => void;
}

/** Parameters one call may find refused, one after another, before it gives up on the endpoint. */
const MAX_REFUSALS = 4;
/** What `call` learns when a reply ran out of output budget before any answer. */
const OUTPUT_BUDGET = 'output_budget';

/**
 * The one way to reach one endpoint: where it is, its key (only to the origin it was entered for),
 * its wire format's adapter, and what it accepts now (its table row, less what it refused before,
 * learned at run time). A chat call a provider refuses for a parameter is made again without it.
 */
export class Upstreams {
  constructor(private readonly deps: UpstreamsDeps) {}

  /**
   * A chat call. When the endpoint says a parameter or feature is unsupported, that is remembered
   * for it and the call made again without it (refused calls are not billed); when nothing is left to
   * change, the error stands and the router moves on. `onBilled` hears of what failed calls still cost.
   */
  async call(endpoint: CatalogEndpoint, request: ChatRequest, signal: CancelSignal, hooks: CallHooks = {}): Promise<ChatResult> {
    const result = await this.chat(endpoint, request, signal, hooks);
    if (result === null) throw new UpstreamError('unsupported', `${endpoint.provider.name} refused log-probabilities`, { parameter: 'logprobs' });
    return result;
  }

  /**
   * A chat call that asks for log-probabilities: null when the endpoint refused them (it is
   * remembered), so that the caller asks another way.
   */
  callForLogprobs(endpoint: CatalogEndpoint, request: ChatRequest, signal: CancelSignal, hooks: CallHooks = {}): Promise<ChatResult | null> {
    return this.chat(endpoint, request, signal, hooks);
  }

  /** A host that answers Decisions itself answers a whole request, in its own wire family. */
  async decide(endpoint: CatalogEndpoint, ask: NativeAsk, signal: CancelSignal): Promise<DecideResult> {
    const target = await this.target(endpoint);
    this.assertKey(endpoint, target);
    return this.adapter(endpoint).decide!(target, ask, { http: this.deps.http, clock: this.deps.clock, signal });
  }

  /** What a request to the endpoint may carry now: its table row, less what it refused before. */
  capabilities(endpoint: CatalogEndpoint): Capabilities {
    return withoutLearned(endpoint.capabilities, this.deps.learned.refused(endpoint.id));
  }

  /** What the endpoint refused at run time, for Endpoints. */
  refusals(endpoint: CatalogEndpoint): Refusal[] {
    return this.deps.learned.list(endpoint.id);
  }

  adapter(endpoint: CatalogEndpoint): ProviderAdapter {
    return WIRES[endpoint.wire].adapter;
  }

  private async chat(endpoint: CatalogEndpoint, request: ChatRequest, signal: CancelSignal, hooks: CallHooks): Promise<ChatResult | null> {
    const target = await this.target(endpoint);
    this.assertKey(endpoint, target);
    const adapter = this.adapter(endpoint);
    const ctx: CallContext = { http: this.deps.http, clock: this.deps.clock, signal, onFirstToken: hooks.onFirstToken };
    for (let refusals = 0; ; refusals += 1) {
      try {
        return await adapter.chat!(target, request, ctx);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // A model that declined, or ran out of budget, was still paid for what it produced.
        if (error.details.usage) hooks.onBilled?.(error.details.usage);
        // Out of budget before any answer: remembered, so the next request leaves more room; this one moves on.
        if (error.kind === 'incomplete') await this.learn(endpoint, OUTPUT_BUDGET, error.message);
        const refused = error.kind === 'unsupported' ? error.details.parameter : undefined;
        if (!refused || refusals >= MAX_REFUSALS) throw error;
        const before = JSON.stringify(target.capabilities);
        await this.learn(endpoint, refused, error.message);
        target.capabilities = this.capabilities(endpoint);
        if (JSON.stringify(target.capabilities) === before) throw error;
        if (request.topLogprobs && target.capabilities.topLogprobs === 0) return null;
      }
    }
  }

  /** Where to send a call; a provider's key is read from the secret store only when it needs one. */
  private target(endpoint: CatalogEndpoint): Target | Promise<Target> {
    const { local, slug } = endpoint.provider;
    const baseUrl = withAccount(endpoint.provider.base_url, this.deps.accountOf(slug));
    const capabilities = this.capabilities(endpoint);
    const { host } = endpoint;
    if (local) return { baseUrl, model: endpoint.upstreamModel, apiKey: undefined, capabilities, host };
    return this.deps.providerKeys.keyFor(slug, baseUrl, endpoint.provider.name).then((found) => {
      // A key is only ever sent to the address it was entered for.
      if (found && 'refused' in found) throw new UpstreamError('unconfigured', found.refused);
      return { baseUrl, model: endpoint.upstreamModel, apiKey: found?.key, capabilities, host };
    });
  }

  /** Remembers that the endpoint refused a parameter or feature, so later requests leave it out. */
  private learn(endpoint: CatalogEndpoint, parameter: string, message: string): Promise<void> {
    return this.deps.learned.learn(endpoint.id, parameter, message);
  }

  /** A provider that needs a key (or an address) we do not have: said plainly, never sent upstream. */
  private assertKey(endpoint: CatalogEndpoint, target: Target): void {
    if (!endpoint.provider.local && !target.apiKey) {
      throw new UpstreamError('unconfigured', `no API key is set for ${endpoint.provider.name} (add one in Settings)`);
    }
    if (target.baseUrl.includes(ACCOUNT_PLACEHOLDER)) {
      throw new UpstreamError(
        'unconfigured',
        `${endpoint.provider.name}'s address needs your account id in place of ${ACCOUNT_PLACEHOLDER} (enter it beside the provider's key in Settings)`,
      );
    }
  }
}
