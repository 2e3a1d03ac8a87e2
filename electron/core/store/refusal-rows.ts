/** What the learned-capabilities stores on both backends share: a refusal as a row and back. */
import type { StoredRefusal } from './ports';

/** A refusal as both backends keep it: the endpoint in a snake_case column. */
export type RefusalRow = Omit<StoredRefusal, 'endpointId'> & { endpoint_id: string };

/** Every refusal, by endpoint then parameter (the same statement on both backends). */
export const ALL_REFUSALS = 'SELECT endpoint_id, parameter, message, learned_at FROM endpoint_refusals ORDER BY endpoint_id, parameter';

export const toRefusal = (r: RefusalRow): StoredRefusal => ({
  endpointId: r.endpoint_id,
  parameter: r.parameter,
  message: r.message,
  learned_at: r.learned_at,
});

/** A refusal's values in the order of `INSERT INTO endpoint_refusals (endpoint_id, parameter, message, learned_at)`. */
export const refusalValues = (r: StoredRefusal): [string, string, string, string] => [r.endpointId, r.parameter, r.message, r.learned_at];
