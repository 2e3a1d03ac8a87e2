import type { EndpointDetail } from '../../../../shared/schemas/inspector';
import { methodText } from '../../lib/answering';
import { ScrollArea } from '../../ui/ScrollArea';
import { ColumnHeads } from '../../ui/ColumnHeads';

const UNKNOWN_SOURCE = 'unknown (no source gives it)';

/**
 * How the gateway builds requests to each endpoint, and where every value comes from: the row of
 * its provider's capability table (with the document it names), what it refused at run time, and
 * the source of its prices and limits.
 */
export function RequestShape({ details }: { details: EndpointDetail[] }) {
  if (details.length === 0) return null;
  return (
    <ScrollArea label="How requests are built, scrolls sideways">
      <table className="table dense request-shapes" aria-label="How requests are built">
        <ColumnHeads names={['Endpoint', 'Answers from', 'Request', 'Values from', 'Refused at run time']} />
        <tbody>
          {details.map((d) => (
            <tr key={d.tag} data-tag={d.tag}>
              <th scope="row">
                <span className="mono">{d.tag}</span>
              </th>
              <td>{methodText(d.capabilities.method)}</td>
              <td className="small wrap request-shape">{d.host ? <HostShape host={d.host} /> : <ChatShape capabilities={d.capabilities} />}</td>
              <td className="small values-from">
                <div>prices: {d.sources.pricing ?? UNKNOWN_SOURCE}</div>
                <div>context: {d.sources.context_length ?? UNKNOWN_SOURCE}</div>
                <div>max output: {d.sources.max_completion_tokens ?? UNKNOWN_SOURCE}</div>
              </td>
              <td className="small refused">
                {d.refused.length === 0 ? (
                  <span className="muted">nothing</span>
                ) : (
                  <ul className="plain-list">
                    {d.refused.map((r) => (
                      <li key={r.parameter} title={r.message}>
                        <span className="mono">{r.parameter}</span> <span className="muted">since {new Date(r.learned_at).toLocaleString()}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

function ChatShape({ capabilities: c }: { capabilities: EndpointDetail['capabilities'] }) {
  return (
    <>
      <div>
        <span className="mono">{c.token_limit}</span> · temperature {c.temperature ? 'sent' : 'not sent'} ·{' '}
        {c.top_logprobs > 0 ? `up to ${c.top_logprobs} alternatives` : 'no log-probabilities'}
      </div>
      <div>
        structured output: {c.structured_output} · reasoning: {c.reasoning}
      </div>
      <div className="muted" title={c.source}>
        per {shorten(c.source)}
      </div>
    </>
  );
}

const WIRE_NAME: Record<string, string> = { systemone: 'System One', 'openai-decisions': 'OpenAI Decisions', decisions: 'Another gateway’s Decisions' };
const IMAGES: Record<string, string> = {
  none: 'no images',
  'state-parts': 'images as parts of the state',
  assets: 'images as an assets map',
  'images-array': 'images in a top-level array',
  multipart: 'images as file parts',
  'input-image': 'images as input_image parts',
};
const range = ([min, max]: [number, number | null], unit: string) => (max === null ? `${min}+ ${unit}` : `${min}–${max} ${unit}`);

/** What a host that answers natively takes, per the document its row names. */
function HostShape({ host }: { host: NonNullable<EndpointDetail['host']> }) {
  const l = host.limits;
  return (
    <>
      <div>
        {WIRE_NAME[host.wire] ?? host.wire} at <span className="mono">{host.path}</span> · {host.question_types.join(', ')} ·{' '}
        {IMAGES[host.images] ?? host.images}
      </div>
      <div>
        {l.questions === null ? 'questions: no published limit' : `at most ${l.questions} questions`} · {range(l.options, 'choices')} ·{' '}
        {range(l.levels, 'levels')}
        {l.images !== null ? ` · at most ${l.images} images` : ''}
        {l.context_tokens !== null ? ` · ${l.context_tokens.toLocaleString('en-US')} tokens` : ''}
      </div>
      <div>
        {host.rounding_decimals === null ? 'rounding not declared' : `answers rounded to ${host.rounding_decimals} decimals`} · output{' '}
        {host.output_billed ? 'billed at its price' : 'free'}
      </div>
      {host.gaps ? <div className="muted">{host.gaps}</div> : null}
      <div className="muted" title={host.source}>
        per {shorten(host.source)}
      </div>
    </>
  );
}

/** The first document a capability row names, without the scheme. */
const shorten = (source: string): string => source.split('; ')[0]!.replace(/^https?:\/\//, '');
