import type { OperationOutput } from '../../../../shared/contract/operations';

/** Tokens of one request as typed, for models without traffic here yet. */
export type TypedTraffic = { input: string; output: string };

/** The input or output tokens of the typed request. */
function TokensInput({ which, typed, onTyped }: { which: keyof TypedTraffic; typed: TypedTraffic; onTyped: (typed: TypedTraffic) => void }) {
  return (
    <input
      type="number"
      min={0}
      value={typed[which]}
      onChange={(e) => onTyped({ ...typed, [which]: e.target.value })}
      placeholder={which}
      aria-label={`${which === 'input' ? 'Input' : 'Output'} tokens of a request`}
    />
  );
}

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
        routing sends them: each endpoint as often as it answers, with its failures and the fallbacks they cause, four at a time as an evaluation sends them,
        each taking as long as the model&apos;s answered items took (one at a time where it has none).
        {traffic?.all ? ` ${traffic.all.requests.toLocaleString('en-US')} requests measured so far.` : ' No traffic measured yet.'} For a model without any,
        price a request of
      </span>
      <TokensInput which="input" typed={typed} onTyped={onTyped} />
      <span>input and</span>
      <TokensInput which="output" typed={typed} onTyped={onTyped} />
      <span>output tokens.</span>
    </div>
  );
}
