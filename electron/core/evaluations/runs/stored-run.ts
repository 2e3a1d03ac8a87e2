import { GatewayError } from '../../errors';
import type { EvalRunStorage, StoredEvalRun } from './storage';

/** A run as stored; a run that is not there is a 404 with its id, wherever it is asked for. */
export async function storedRun(runs: Pick<EvalRunStorage, 'getRun'>, id: string): Promise<StoredEvalRun> {
  const row = await runs.getRun(id);
  if (!row) throw new GatewayError('not_found', `No evaluation run with id "${id}"`);
  return row;
}
