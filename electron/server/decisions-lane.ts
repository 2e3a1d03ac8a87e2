import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Core, answerShape, alphaShape } from '../core';
import { asGatewayError, checkHost } from './app';
import { authenticate } from './auth';
import { readIncomingJson, responseClosed } from './body';
import type { BodyMemory } from './body-memory';
import { writeError } from './http-errors';

export const DECISIONS_PATH = '/api/alpha/decisions';

/**
 * `POST /api/alpha/decisions` straight from Node's HTTP server, without the router's request and
 * response objects and middleware chain: the gateway's hottest path. It runs the same steps in the
 * same order as the routed version (host check, request id, key, rate limit, body limit, then
 * `answerShape` with the spec's shape) and answers with the same statuses, headers and envelopes; a test sends the
 * same requests both ways and compares. Any other request is left to the router.
 */
export function decisionsLane(core: Core, options: { allowedHostnames: readonly string[] | null; bodyLimitBytes: number; bodyMemory: BodyMemory }) {
  const json = (res: ServerResponse, status: number, body: string, requestId: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    try {
      if (options.allowedHostnames) checkHost(options.allowedHostnames, req.headers.host ?? '');
      const key = await authenticate(core, req.headers.authorization, { requestId, atDecision: true });
      // Parsed where it is read: the body's text is not kept while the request is answered.
      const parsed = await readIncomingJson(req, options.bodyLimitBytes, { memory: options.bodyMemory, until: res }, alphaShape.what);
      const { body: answer, settle } = await answerShape(core, alphaShape, {
        json: parsed,
        // Node joins a repeated header into one string, as the router does.
        header: (name) => req.headers[name] as string | undefined,
        key,
        requestId,
        signal: responseClosed(res),
      });
      settle();
      json(res, 200, JSON.stringify(answer), requestId);
    } catch (error) {
      writeError(res, asGatewayError(core, error, requestId, DECISIONS_PATH), requestId);
    }
  }

  /** Takes the request when it is this route's; false leaves it to the router. */
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST') return false;
    const url = req.url ?? '';
    if (url !== DECISIONS_PATH && !(url.startsWith(DECISIONS_PATH) && url.charCodeAt(DECISIONS_PATH.length) === 63 /* ? */)) return false;
    // handle() answers every failure itself; this only keeps a fault in that answer from going unseen.
    handle(req, res).catch((error: unknown) => core.logger.error({ err: error, path: DECISIONS_PATH }, 'could not answer'));
    return true;
  };
}
