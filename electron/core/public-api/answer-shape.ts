import { characterCount, MAX_SESSION_ID_LENGTH, type DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { CancelSignal } from '../cancel';
import type { CascadePresets } from '../cascade-presets/cascade-presets';
import type { CaptureTap } from '../captures/tap';
import type { HumanStage } from '../reviews/human-stage';
import type { Catalog } from '../catalog/catalog';
import type { ImageFetchOptions } from '../decisions/image-fetch';
import type { SettingsStore } from '../settings/settings';
import { GatewayError } from '../errors';
import type { VerifiedKey } from '../keys/api-keys';
import { knownModel } from './cascade-request';
import { answerApiCall, type ApiCallAnswer, type ApiCallDeps } from './decisions-call';
import type { PublicShape } from './shape';

/** A public Decisions call as HTTP hands it over, once the caller is admitted and its body read as JSON. */
export interface ShapeRequest {
  json: unknown;
  /** A request header, by its lower-case name. */
  header(name: string): string | undefined;
  key: VerifiedKey;
  requestId: string;
  /** Fires when the caller hangs up. */
  signal: CancelSignal | undefined;
}

/** What answering a call in its shape uses of the core: reading the body (presets, known models, image settings) and the call itself. */
export interface ShapeDeps extends ApiCallDeps {
  readonly options: { readonly imageFetch?: ImageFetchOptions | undefined };
  readonly settings: SettingsStore;
  readonly catalog: Catalog;
  readonly cascadePresets: CascadePresets;
  /** Offered every answered call, once it is charged: the capture rules pick from them. */
  readonly captureTap: Pick<CaptureTap, 'offer'>;
  /** Queues a request its cascade sent to a person, before the caller is answered. */
  readonly humanStage: Pick<HumanStage, 'enqueue'>;
}

/**
 * Answers one public Decisions call in its shape: the body read by the shape, the call answered by
 * the core (credit, charge, request log, trace: decisions-call.ts), offered to the capture rules,
 * the answer written back by the shape. Every route and the direct lane come through here, so they answer alike.
 */
export async function answerShape(core: ShapeDeps, shape: PublicShape, call: ShapeRequest): Promise<{ body: unknown; settle: ApiCallAnswer['settle'] }> {
  const parsed = await shape.parse(call.json, {
    presets: core.cascadePresets,
    knownModel: knownModel(core),
    imageUrls: { fetch: core.settings.get().image_urls === 'fetch', options: core.options.imageFetch },
    header: call.header,
  });
  const answer = await answerApiCall(core, {
    request: parsed.request,
    sessionId: sessionOf(parsed.request, call.header('x-session-id')),
    keyId: call.key.id,
    requestId: call.requestId,
    signal: call.signal,
    route: parsed.route,
    ...(parsed.refusals ? { refusals: parsed.refusals } : {}),
    stages: parsed.stages,
  });
  core.captureTap.offer({
    request: parsed.request,
    response: answer.response,
    keyId: call.key.id,
    requestId: call.requestId,
    header: call.header,
    cascade: answer.cascade,
    latencyMs: answer.latencyMs,
  });
  if (answer.cascade?.human) {
    const reviewId = await core.humanStage.enqueue({
      request: parsed.request,
      response: answer.response,
      keyId: call.key.id,
      requestId: call.requestId,
      webhook: parsed.stages?.webhook ?? null,
      preset: parsed.stages?.preset ?? null,
    });
    return { body: parsed.render({ ...answer, cascade: { ...answer.cascade, review_id: reviewId } }), settle: answer.settle };
  }
  return { body: parsed.render(answer), settle: answer.settle };
}

/** The body's session_id, else the `x-session-id` header (checked here, under its own name); neither is ever sent to a provider. */
export function sessionOf(request: Pick<DecisionsRequest, 'session_id'>, header: string | undefined): string | null {
  const sessionId = request.session_id ?? header ?? null;
  if (request.session_id === undefined && sessionId !== null && characterCount(sessionId) > MAX_SESSION_ID_LENGTH) {
    throw new GatewayError('bad_request', `x-session-id: at most ${MAX_SESSION_ID_LENGTH} characters`);
  }
  return sessionId;
}
