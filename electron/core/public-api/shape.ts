import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import type { GatewayError } from '../errors';
import type { StagePlan } from '../decisions/stages';
import type { ImageFetchOptions } from '../decisions/image-fetch';
import type { KnownModel, stagesFromCascadeField } from './cascade-request';
import type { ApiCallAnswer, ApiRoute } from './decisions-call';

/** What a shape needs of the core to read a caller's request. */
export interface ShapeContext {
  /** A cascade preset by name (the `cascade` extension). */
  presets: Parameters<typeof stagesFromCascadeField>[2];
  knownModel: KnownModel;
  /** Whether image URLs in requests are fetched (Settings), and how. */
  imageUrls: { fetch: boolean; options: ImageFetchOptions | undefined };
  /** A request header, by its lower-case name. */
  header(name: string): string | undefined;
}

/** A caller's request read in its shape: the spec request it asks, how, and how its answer is written back. */
export interface ShapeCall {
  request: DecisionsRequest;
  stages?: StagePlan | undefined;
  /** `keep`: a declined question is answered as a refusal in place (shapes that have one); else the request is a 400. */
  refusals?: 'keep' | 'fail';
  /** What the request log says the caller spoke. */
  route: ApiRoute;
  /** The answer in the caller's shape. */
  render(answer: ApiCallAnswer): unknown;
}

/**
 * One public Decisions shape (the spec's, OpenAI's, System One's, the AI SDK gateway protocol's):
 * its route, how a body is read into a request and answered back, its clients' error body, and
 * what the OpenAPI document says of it. shapes/index.ts lists them; the server registers each in
 * one loop, and authentication, observability and the OpenAPI document read the same list.
 */
export interface PublicShape {
  /** POST route under /api. */
  path: string;
  /** What the body is, in messages about malformed JSON. */
  what: string;
  parse(json: unknown, ctx: ShapeContext): ShapeCall | Promise<ShapeCall>;
  /** Errors in this shape's clients' words; absent: the spec's envelope. */
  errorBody?: (error: GatewayError) => unknown;
  /** The OpenAPI operation's parts (schemas by their component name). */
  openapi: {
    operationId: string;
    summary: string;
    headers?: { name: string; required: boolean; description?: string }[];
    request: unknown;
    response: unknown;
    responseDescription: string;
    /** The component name of the error body, when it is not the spec's envelope, and how it is described. */
    errorSchema?: { ref: string; description: string };
  };
}
