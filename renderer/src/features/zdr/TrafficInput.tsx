import type { OperationOutput } from '../../../../shared/contract/operations';

/** Tokens of one request as typed, for models without traffic here yet. */
export type TypedTraffic = { input: string; output: string };

/** What costs are priced on: the traffic measured here, and the request typed for models without any. */
export function TrafficInput({
  traffic,
  typed,
  onTyped,
}: {
  traffic: OperationOutput<'usage.traffic'> | undefined;
  typed: TypedTraffic;
  onTyped: (typed: TypedTraffic) => void;
}) {
  return (
    <div className="toolbar small traffic-input">
      <span>
        Cost per 1,000 requests is priced on your own traffic (each model&apos;s requests answered here, inspector and evaluation runs, their mean tokens) as
        routing sends them: each endpoint as often as it answers, with its failures and the fallbacks they cause.
        {traffic?.all ? ` ${traffic.all.requests.toLocaleString('en-US')} requests measured so far.` : ' No traffic measured yet.'} For a model without any,
        price a request of
      </span>
      <input
        type="number"
        min={0}
        value={typed.input}
        onChange={(e) => onTyped({ ...typed, input: e.target.value })}
        placeholder="input"
        aria-label="Input tokens of a request"
      />
      <span>input and</span>
      <input
        type="number"
        min={0}
        value={typed.output}
        onChange={(e) => onTyped({ ...typed, output: e.target.value })}
        placeholder="output"
        aria-label="Output tokens of a request"
      />
      <span>output tokens.</span>
    </div>
  );
}
