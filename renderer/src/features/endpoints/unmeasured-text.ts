/**
 * What a row says when measuring its endpoint failed just now. A row may still show figures (from
 * requests of the last 30 minutes): a red "could not be measured" beside a measured 122 tok/s read
 * as a contradiction, so the row says where its figures come from. Pure.
 */
export function unmeasuredText(reason: string, hasFigures: boolean): string {
  return hasFigures
    ? `Measuring now failed (${reason}); the figures in this row come from requests of the last 30 minutes.`
    : `Could not be measured: ${reason}`;
}
