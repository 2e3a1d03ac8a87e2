import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Core, asResult, importUpload, GatewayError, auditedImport } from '../core';
import type { AuditActor } from '../../shared/schemas/audit';

/**
 * `POST /api/inspector/datasets.upload`: a dataset file streamed into the importer (see
 * shared/contract/dataset-upload.ts), so its size is not bounded by the JSON body limit and the
 * server's memory stays flat. Behind the same session gate as every inspector operation.
 */
export async function datasetUpload(core: Core, c: Context, actor: AuditActor): Promise<Response> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const result = await asResult(
    async () => {
      // The Node request when there is one (touching the web Request's body would start reading it too).
      const web = incoming ? null : c.req.raw.body;
      const body = incoming ?? (web ? Readable.fromWeb(web as WebReadableStream) : null);
      if (!body) throw new GatewayError('bad_request', 'upload: the request has no body');
      return importUpload(core.datasets, body, (report, file) => auditedImport(core.audit, actor, report, { file }));
    },
    (error) => core.logger.error({ err: error }, 'dataset upload failed'),
  );
  return c.json(result, (result.ok ? 200 : result.error.code) as ContentfulStatusCode);
}
