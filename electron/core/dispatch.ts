import { randomUUID } from 'node:crypto';
import { isOperationName, type OperationName } from '../../shared/contract/names';
import { OPERATIONS, type OperationOutput } from '../../shared/contract/operations';
import type { Result } from '../../shared/contract/result';
import { parseStrictOrBadRequest, refuseReservedKeys } from './validation';
import type { AuditActor } from '../../shared/schemas/audit';
import type { Logger } from './logger';
import type { Handlers, OperationContext } from './operations/index';
import { GatewayError } from './errors';
import { MAX_JSON_DEPTH, valueTooDeepAt } from './json-depth';

/**
 * Runs one inspector operation for a host (IPC or HTTP): validates the input at this trust
 * boundary, and turns every outcome into data. Unexpected errors are logged with a request id
 * that the caller sees; their details are not sent. `actor` is who asked, as the host knows it
 * (the desktop window, the browser's signed-in key or printed link): what the operation changes
 * is logged under that name.
 */
export async function dispatch(
  core: { readonly handlers: Handlers; readonly logger: Logger },
  name: string,
  rawInput: unknown,
  actor: AuditActor,
): Promise<Result<unknown>> {
  if (!isOperationName(name)) {
    return failure(new GatewayError('not_found', `Unknown operation "${name}"`));
  }
  try {
    const tooDeep = valueTooDeepAt(rawInput);
    if (tooDeep !== null) throw new GatewayError('bad_request', `input for ${name}: ${tooDeep} nests deeper than ${MAX_JSON_DEPTH} levels; flatten it`);
    refuseReservedKeys(rawInput);
    const input = parseStrictOrBadRequest(OPERATIONS[name].input, rawInput ?? {}, `input for ${name}`);
    const handler = core.handlers[name] as (input: unknown, context: OperationContext) => Promise<OperationOutput<OperationName>>;
    return { ok: true, data: await handler(input, { actor }) };
  } catch (error) {
    if (error instanceof GatewayError) return failure(error);
    const requestId = randomUUID();
    core.logger.error({ err: error, operation: name, request_id: requestId }, 'operation failed');
    return failure(
      new GatewayError('internal', `Unexpected error in ${name}; see the log for request ${requestId}`, {
        metadata: { request_id: requestId },
      }),
    );
  }
}

const failure = (error: GatewayError): Result<never> => ({ ok: false, error: error.toBody() });
