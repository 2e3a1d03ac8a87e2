import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from 'undici';
import { TRACE_KNOWN_KEYS, type TraceConfig } from '../../../shared/schemas/trace';
import { FlushTimer } from '../flush-timer';
import type { Logger } from '../logger';

/** An operator's OTLP/HTTP collector for traces. */
export interface OtlpCollector {
  url: string;
  headers: Record<string, string>;
}

/**
 * The collector the standard OpenTelemetry variables name, or why they cannot be used:
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the traces URL as it is) or `OTEL_EXPORTER_OTLP_ENDPOINT`
 * (a base, `/v1/traces` added), with `OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `OTEL_EXPORTER_OTLP_HEADERS`
 * (`key=value` pairs separated by commas, values percent-encoded).
 */
export function collectorFromEnv(env: Record<string, string | undefined>): { collector?: OtlpCollector; problem?: string } {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  const [name, given] = traces ? ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces] : ['OTEL_EXPORTER_OTLP_ENDPOINT', base];
  if (!given) return {};
  let url: URL;
  try {
    url = new URL(traces ? given : `${given.replace(/\/+$/, '')}/v1/traces`);
  } catch {
    return { problem: `${name} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${name} must be an http(s) URL (OTLP over HTTP), not ${url.protocol}` };
  const [headersName, list] =
    env['OTEL_EXPORTER_OTLP_TRACES_HEADERS'] !== undefined
      ? ['OTEL_EXPORTER_OTLP_TRACES_HEADERS', env['OTEL_EXPORTER_OTLP_TRACES_HEADERS']]
      : ['OTEL_EXPORTER_OTLP_HEADERS', env['OTEL_EXPORTER_OTLP_HEADERS'] ?? ''];
  const headers: Record<string, string> = {};
  for (const [i, pair] of list.split(',').entries()) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    // The value is never named in the message: it is usually a credential.
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return { problem: `${headersName}: entry ${i + 1} is not key=value with a header name` };
    try {
      headers[key.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      return { problem: `${headersName}: the value of "${key}" is not valid percent-encoding` };
    }
  }
  return { collector: { url: url.toString(), headers } };
}

/** One finished Decisions request, as the exporter needs it. */
export interface DecisionSpan {
  trace: TraceConfig | undefined;
  model: string;
  provider: string | null;
  sessionId: string | null;
  user: string | null;
  startMs: number;
  endMs: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cost: number | null;
  error: string | null;
}

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };

const value = (v: unknown): AnyValue =>
  typeof v === 'number'
    ? Number.isInteger(v)
      ? { intValue: String(v) }
      : { doubleValue: v }
    : typeof v === 'boolean'
      ? { boolValue: v }
      : { stringValue: typeof v === 'string' ? v : JSON.stringify(v) };

/** A caller's id as OTLP wants it: kept when it already is `bytes` hex long, else a stable hash of it. */
export function otlpId(given: string | undefined, bytes: 8 | 16): string {
  if (given === undefined) return randomBytes(bytes).toString('hex');
  const hex = given.toLowerCase();
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(hex) && !/^0+$/.test(hex)) return hex;
  return createHash('sha256')
    .update(given)
    .digest('hex')
    .slice(0, bytes * 2);
}

/** The span in OTLP/JSON: known trace keys onto the span, other keys as custom attributes. */
export function toOtlpSpan(span: DecisionSpan): Record<string, unknown> {
  const trace = span.trace ?? {};
  const attributes: { key: string; value: AnyValue }[] = [];
  const add = (key: string, v: unknown) => {
    if (v !== null && v !== undefined) attributes.push({ key, value: value(v) });
  };
  add('gen_ai.operation.name', 'decisions');
  add('gen_ai.request.model', span.model);
  add('gen_ai.provider.name', span.provider);
  add('gen_ai.usage.input_tokens', span.inputTokens);
  add('gen_ai.usage.output_tokens', span.outputTokens);
  add('verdict.cost_usd', span.cost);
  add('session.id', span.sessionId);
  add('user.id', span.user);
  add('trace.name', trace.trace_name);
  add('gen_ai.generation.name', trace.generation_name);
  for (const [key, v] of Object.entries(trace)) {
    if (!(TRACE_KNOWN_KEYS as readonly string[]).includes(key)) add(`trace.metadata.${key}`, v);
  }
  const result: Record<string, unknown> = {
    traceId: otlpId(trace.trace_id, 16),
    spanId: otlpId(undefined, 8),
    name: trace.span_name ?? trace.generation_name ?? 'decisions',
    kind: 3,
    startTimeUnixNano: `${BigInt(Math.round(span.startMs)) * 1_000_000n}`,
    endTimeUnixNano: `${BigInt(Math.round(span.endMs)) * 1_000_000n}`,
    attributes,
    status: span.error ? { code: 2, message: span.error } : { code: 1 },
  };
  if (trace.parent_span_id !== undefined) result['parentSpanId'] = otlpId(trace.parent_span_id, 8);
  return result;
}

/**
 * Sends spans to each configured OTLP/HTTP destination (`{url}/v1/traces`, JSON encoding), in
 * batches at most a second old. Export failures are logged and never affect the request.
 */
export class OtlpExporter {
  private queue: Record<string, unknown>[] = [];
  private readonly timer = new FlushTimer(1_000, () => void this.flush());
  private readonly pools = new Map<string, Pool>();

  constructor(
    /** The settings' destinations: base URLs, sent to at /v1/traces. */
    private readonly destinations: () => readonly string[],
    private readonly logger: Logger,
    private readonly version: string,
    private readonly deployment: {
      /** The operator's collector (OTEL_EXPORTER_OTLP_* variables): the traces URL as given, and its headers (never logged). */
      collector?: OtlpCollector | undefined;
      /** Which of a team's instances sent the spans (`service.instance.id`). */
      instance?: string | undefined;
    } = {},
  ) {}

  /** Whether any destination is configured (callers skip building spans otherwise). */
  enabled(): boolean {
    return this.deployment.collector !== undefined || this.destinations().length > 0;
  }

  /** Where a batch goes: each setting's destination at /v1/traces, and the operator's collector. */
  private targets(): { url: URL; headers: Record<string, string>; named: string }[] {
    const targets = this.destinations().map((d) => ({ url: new URL(`${d.replace(/\/+$/, '')}/v1/traces`), headers: {}, named: d }));
    const collector = this.deployment.collector;
    if (collector) targets.push({ url: new URL(collector.url), headers: collector.headers, named: collector.url });
    return targets;
  }

  record(span: DecisionSpan): void {
    if (!this.enabled()) return;
    this.queue.push(toOtlpSpan(span));
    if (this.queue.length >= 512) void this.flush();
    else this.timer.arm();
  }

  async flush(): Promise<void> {
    this.timer.disarm();
    if (this.queue.length === 0) return;
    const spans = this.queue;
    this.queue = [];
    const body = JSON.stringify({
      resourceSpans: [
        {
          resource: {
            attributes: [
              { key: 'service.name', value: { stringValue: 'verdict' } },
              { key: 'service.version', value: { stringValue: this.version } },
              ...(this.deployment.instance ? [{ key: 'service.instance.id', value: { stringValue: this.deployment.instance } }] : []),
            ],
          },
          scopeSpans: [{ scope: { name: 'verdict.decisions', version: this.version }, spans }],
        },
      ],
    });
    await Promise.all(
      this.targets().map(async ({ url, headers, named: destination }) => {
        let pool = this.pools.get(url.origin);
        if (!pool) {
          // undici is loaded with the first batch: a server that sends no traces never holds it.
          const { Pool } = await import('undici');
          pool = this.pools.get(url.origin) ?? new Pool(url.origin, { connections: 2 });
          this.pools.set(url.origin, pool);
        }
        try {
          const response = await pool.request({
            method: 'POST',
            path: `${url.pathname}${url.search}`,
            headers: { ...headers, 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(5_000),
          });
          await response.body.dump();
          if (response.statusCode >= 300) this.logger.warn({ destination, status: response.statusCode }, 'trace export refused');
        } catch (error) {
          this.logger.warn({ destination, err: error }, 'trace export failed');
        }
      }),
    );
  }

  async close(): Promise<void> {
    await this.flush();
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
