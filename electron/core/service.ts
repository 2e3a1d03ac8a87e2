import { GatewayError } from './errors';
import { decodeBoundKey, keyRefusal } from './keys/bound-key';
import type { DecisionsRequest } from '../../shared/schemas/decisions-request';
import type { DecisionsResponse } from '../../shared/schemas/decisions-response';
import type { ZdrEndpoint } from '../../shared/schemas/endpoint';
import type { ModelWithEndpoints } from '../../shared/schemas/model';
import type { DecisionsEngine, AnsweringMethod, DecisionOutcome, DecideOptions as AnswerOptions } from './decisions/engine';
import { decideInStages, type CascadeRecord, type StagePlan } from './decisions/stages';
import type { Listings } from './catalog/listing';
import { RemoteGateway } from './remote/remote-gateway';
import type { SecretStore } from './keys/secret-store';
import type { SettingsStore } from './settings/settings';
import type { Rounding } from './providers/decision-host';
import type { TokenDetails } from './decisions/usage';

export const REMOTE_KEY_SECRET = 'remote-gateway';

/** The engine's options for answering a request, and the stages to answer it in, if any (decisions/stages.ts). */
export type DecideOptions = AnswerOptions & { stages?: StagePlan | undefined };

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
  /** How the stages went, when the request was asked in several; null when it was asked of one model. */
  cascade: CascadeRecord | null;
}

/**
 * The three public operations, answered here or by a remote gateway, as the settings say. `decide`
 * is the one entry to "answer a request, in stages": with `options.stages` the request is asked of
 * its model, then of the later models as the stages say, each later stage's worst case held at the
 * first admission.
 */
export interface GatewayService {
  mode: 'built-in' | 'remote';
  listing(modelId: string): Promise<ModelWithEndpoints>;
  zdr(): Promise<ZdrEndpoint[]>;
  decide(request: DecisionsRequest, options: DecideOptions): Promise<Answered>;
}

/**
 * `decideOne` in stages when the options name some: each later model's worst case is what the
 * engine would reserve for it (null when it cannot be worked out here, which then holds nothing).
 */
function inStages(decideOne: (request: DecisionsRequest, options: AnswerOptions) => Promise<Answered>, decisions: DecisionsEngine): GatewayService['decide'] {
  return async (request, { stages, ...options }) => {
    if (!stages) return decideOne(request, options);
    const worstOf = (model: string) => {
      try {
        return decisions.admissionCost({ ...request, model });
      } catch {
        return null;
      }
    };
    const { answered, record } = await decideInStages(decideOne, request, stages, options, worstOf);
    return { ...answered, cascade: record };
  };
}

export function createServiceSelector(deps: { settings: SettingsStore; listings: Listings; decisions: DecisionsEngine; secrets: SecretStore }): {
  current(): GatewayService;
  close(): Promise<void>;
} {
  const builtIn: GatewayService = {
    mode: 'built-in',
    listing: async (modelId) => deps.listings.listing(modelId),
    zdr: async () => deps.listings.zdrListing(),
    decide: inStages(async (request, options) => {
      const outcome = await deps.decisions.decide(request, options);
      return {
        response: outcome.response,
        methods: outcome.methods,
        endpointId: outcome.endpoint.id,
        route: { attempts: outcome.attempts, plan: outcome.plan },
        refused: outcome.refused,
        rounding: outcome.rounding,
        tokens: outcome.tokens,
        cascade: null,
      };
    }, deps.decisions),
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
        decide: inStages(async (request, options) => {
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
            cascade: null,
          };
        }, deps.decisions),
      };
    },
    close: async () => {
      await remote?.close();
    },
  };
}
