import { z } from 'zod';
import { DecisionsResponseSchema, type DecisionsResponse } from '../../../shared/schemas/decisions-response';
import type { DecisionsRequest } from '../../../shared/schemas/decisions-request';
import { ZdrEndpointSchema, type ZdrEndpoint } from '../../../shared/schemas/endpoint';
import { ErrorEnvelopeSchema } from '../../../shared/schemas/error-envelope';
import { ModelWithEndpointsSchema, type ModelWithEndpoints } from '../../../shared/schemas/model';
import { ERROR_STATUS, type ErrorKind } from '../../../shared/contract/errors';
import { GatewayError } from '../errors';
import { readText } from '../providers/http';
import { UpstreamError } from '../providers/upstream-error';
import type { Pool } from 'undici';
import type { CancelSignal } from '../cancel';

const KIND_BY_STATUS = new Map<number, ErrorKind>(Object.entries(ERROR_STATUS).map(([kind, status]) => [status, kind as ErrorKind]));

/**
 * Remote mode: the three operations are forwarded to another gateway serving the same API
 * (a base URL ending in /api/v1, and its key). Its answers and its errors come back as they are,
 * validated; listings then show that gateway's own measured figures.
 */
export class RemoteGateway {
  /** Made with the first call (undici is loaded then: a server in local mode never holds it). */
  private pool: Promise<Pool> | null = null;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(
    readonly baseUrl: string,
    private readonly key: () => Promise<string | undefined>,
  ) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
  }

  listing(modelId: string): Promise<ModelWithEndpoints> {
    const [author, ...slug] = modelId.split('/');
    return this.call(
      'GET',
      `${this.basePath}/models/${encodeURIComponent(author ?? '')}/${slug.map(encodeURIComponent).join('/')}/endpoints`,
      undefined,
      z.object({ data: ModelWithEndpointsSchema }),
    ).then((r) => r.data);
  }

  zdr(): Promise<ZdrEndpoint[]> {
    return this.call('GET', `${this.basePath}/endpoints/zdr`, undefined, z.object({ data: z.array(ZdrEndpointSchema) })).then((r) => r.data);
  }

  decide(request: DecisionsRequest, signal?: CancelSignal): Promise<DecisionsResponse> {
    const hostPath = this.basePath.replace(/\/api\/v1$/, '');
    return this.call('POST', `${hostPath}/api/alpha/decisions`, request, DecisionsResponseSchema, signal);
  }

  private async call<S extends z.ZodType>(method: 'GET' | 'POST', path: string, body: unknown, schema: S, signal?: CancelSignal): Promise<z.output<S>> {
    const key = await this.key();
    if (!key) throw new GatewayError('unavailable', `No key is set for the remote gateway ${this.baseUrl}; add one in Settings`);
    const controller = signal ?? AbortSignal.timeout(120_000);
    let status: number;
    let text: string;
    try {
      this.pool ??= import('undici').then(({ Pool }) => new Pool(this.origin, { connections: 32, keepAliveTimeout: 30_000 }));
      const response = await (
        await this.pool
      ).request({
        method,
        path,
        headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: controller,
      });
      status = response.statusCode;
      text = await readText(response.body, controller);
    } catch (error) {
      const reason = error instanceof UpstreamError ? error.message : (error as Error).message;
      throw new GatewayError('bad_gateway', `The remote gateway ${this.baseUrl} could not be reached: ${reason}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new GatewayError('bad_gateway', `The remote gateway answered ${status} with a body that is not JSON`);
    }
    if (status < 200 || status >= 300) {
      const envelope = ErrorEnvelopeSchema.safeParse(json);
      const message = envelope.success ? envelope.data.error.message : `HTTP ${status}`;
      // A refused key is this app's configuration, not the caller's: a 401 would blame their key.
      if (status === 401 || status === 403) {
        throw new GatewayError('bad_gateway', `The remote gateway refused this app's key (${status}: ${message}); update it in Settings`);
      }
      const kind = KIND_BY_STATUS.get(status) ?? 'bad_gateway';
      throw new GatewayError(
        kind,
        `Remote gateway: ${message}`,
        envelope.success && envelope.data.error.metadata ? { metadata: envelope.data.error.metadata } : {},
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new GatewayError('bad_gateway', `The remote gateway's answer does not have the expected shape (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
    return parsed.data;
  }

  async close(): Promise<void> {
    await (await this.pool)?.close();
  }
}
