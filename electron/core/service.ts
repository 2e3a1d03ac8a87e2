import { GatewayError } from './errors';
import { decodeBoundKey, keyRefusal } from './keys/bound-key';
import type { DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../shared/schemas/decisions-response';
import type { ZdrEndpoint } from '../../shared/schemas/endpoint';
import type { ModelWithEndpoints } from '../../shared/schemas/model';
import type { DecisionsEngine, AnsweringMethod, DecisionOutcome } from './decisions/engine';
import type { Gateway } from './gateway';
import { RemoteGateway } from './remote/remote-gateway';
import type { SecretStore } from './keys/secret-store';
import type { SettingsStore } from './settings/settings';
import type { CancelSignal } from './cancel';
import type { Rounding } from './providers/decision-host';
import type { TokenDetails } from './decisions/usage';

export const REMOTE_KEY_SECRET = 'remote-gateway';

export interface DecideOptions {
  requestId: string;
  signal?: CancelSignal;
  /** Called as each question is answered (progress in the inspector). */
  onAnswer?: (name: string) => void;
  /** Called before any upstream call with what gives the most the request can cost (USD); may refuse by throwing. */
  admit?: (maxCost: () => number) => unknown;
  /** A declined question: a 400 (`fail`, the spec's answers have none) or a refusal answer (`keep`). */
  refusals?: 'fail' | 'keep';
}

export interface Answered {
  response: DecisionsResponse;
  /** How each answer was produced; 'remote' when another gateway answered. */
  methods: Record<string, AnsweringMethod | 'remote'>;
  endpointId: string | null;
  /** The plan and the attempts made, for whoever shows how it was routed (the inspector's runs); null when a remote gateway answered. */
  route: Pick<DecisionOutcome, 'attempts' | 'plan'> | null;
  /** Questions a host declined (only when asked to keep refusals), in question order. */
  refused: string[];
  /** Decimals the answers were rounded to, the coarsest of them; null when none was declared (exact). */
  rounding: Rounding | null;
  /** Cached, cache-write and reasoning tokens; null when another gateway answered (its usage has none). */
  tokens: TokenDetails | null;
}

/** The three public operations, answered here or by a remote gateway, as the settings say. */
export interface GatewayService {
  mode: 'built-in' | 'remote';
  listing(modelId: string): Promise<ModelWithEndpoints>;
  zdr(): Promise<ZdrEndpoint[]>;
  decide(request: DecisionsRequest, options: DecideOptions): Promise<Answered>;
}

export function createServiceSelector(deps: { settings: SettingsStore; gateway: Gateway; decisions: DecisionsEngine; secrets: SecretStore }): {
  current(): GatewayService;
  close(): Promise<void>;
} {
  const builtIn: GatewayService = {
    mode: 'built-in',
    listing: async (modelId) => deps.gateway.listing(modelId),
    zdr: async () => deps.gateway.zdrListing(),
    decide: async (request, options) => {
      const outcome = await deps.decisions.decide(request, options);
      return {
        response: outcome.response,
        methods: outcome.methods,
        endpointId: outcome.endpoint.id,
        route: { attempts: outcome.attempts, plan: outcome.plan },
        refused: outcome.refused,
        rounding: outcome.rounding,
        tokens: outcome.tokens,
      };
    },
  };
  let remote: RemoteGateway | null = null;
  return {
    current() {
      const mode = deps.settings.get().gateway;
      if (mode.mode === 'built-in') return builtIn;
      if (!remote || remote.baseUrl !== mode.base_url) {
        void remote?.close();
        const baseUrl = mode.base_url;
        remote = new RemoteGateway(baseUrl, async () => {
          const stored = await deps.secrets.get(REMOTE_KEY_SECRET);
          if (stored === undefined) return undefined;
          // The key goes only to the gateway it was entered for.
          const bound = decodeBoundKey(stored);
          const refusal = bound.origin === null ? null : keyRefusal('the remote gateway', bound.origin, baseUrl);
          if (bound.origin === null || refusal)
            throw new GatewayError(
              'unauthorized',
              refusal ?? 'the remote gateway key was stored before keys were bound to an address; enter it again in Settings',
            );
          return bound.key;
        });
      }
      const target = remote;
      return {
        mode: 'remote',
        listing: (modelId) => target.listing(modelId),
        zdr: () => target.zdr(),
        decide: async (request, options) => {
          const response = await target.decide(request, options.signal);
          // Another gateway's numbers, rounded as it rounds them: none declared here.
          return {
            response,
            methods: Object.fromEntries(Object.keys(response.answers).map((k) => [k, 'remote' as const])),
            endpointId: null,
            route: null,
            refused: [],
            rounding: null,
            tokens: null,
          };
        },
      };
    },
    close: async () => {
      await remote?.close();
    },
  };
}
