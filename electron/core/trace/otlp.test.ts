import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { ScriptedUpstream } from '../../test-support/scripted-upstream';
import { collectorFromEnv, OtlpExporter, otlpId, toOtlpSpan } from './otlp';

const span = {
  model: 'acme/judge',
  provider: 'Acme',
  sessionId: 's-1',
  user: 'u-1',
  startMs: 1_800_000_000_000,
  endMs: 1_800_000_000_250,
  inputTokens: 40,
  outputTokens: 2,
  cost: 0.00004,
  error: null,
};

describe('trace export (OTLP over HTTP)', () => {
  let receiver: ScriptedUpstream;
  beforeAll(async () => {
    receiver = await new ScriptedUpstream().start();
    receiver.always({ kind: 'respond', status: 200, chunks: ['{}'] });
  });
  afterAll(() => receiver.close());

  it('maps the known trace keys onto the span and the others to custom attributes', () => {
    const trace = {
      trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
      parent_span_id: '00f067aa0ba902b7',
      span_name: 'grade',
      trace_name: 'nightly',
      generation_name: 'gen-7',
      team: 'ops',
      depth: 3,
    };
    const s = toOtlpSpan({ ...span, trace }) as {
      traceId: string;
      parentSpanId: string;
      spanId: string;
      name: string;
      startTimeUnixNano: string;
      attributes: { key: string; value: Record<string, unknown> }[];
    };
    expect(s.traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(s.parentSpanId).toBe('00f067aa0ba902b7');
    expect(s.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(s.name).toBe('grade');
    expect(s.startTimeUnixNano).toBe('1800000000000000000');
    const attrs = Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    expect(attrs).toMatchObject({
      'trace.name': 'nightly',
      'gen_ai.generation.name': 'gen-7',
      'trace.metadata.team': 'ops',
      'trace.metadata.depth': '3',
      'gen_ai.request.model': 'acme/judge',
      'session.id': 's-1',
      'gen_ai.usage.input_tokens': '40',
    });
    expect(attrs['trace.metadata.trace_id']).toBeUndefined();
  });

  it('turns a caller id that is not OTLP hex into a stable one, so one trace stays one trace', () => {
    expect(otlpId('my-run-42', 16)).toBe(otlpId('my-run-42', 16));
    expect(otlpId('my-run-42', 16)).toMatch(/^[0-9a-f]{32}$/);
    expect(otlpId('my-run-43', 16)).not.toBe(otlpId('my-run-42', 16));
  });

  it('sends batches to every destination at /v1/traces', async () => {
    const exporter = new OtlpExporter(() => [receiver.url, `${receiver.url}/collector`], silentLogger, '1.2.3');
    exporter.record({ ...span, trace: { trace_id: 'abc' } });
    exporter.record({ ...span, trace: undefined, error: 'All 1 endpoint tried failed' });
    await exporter.flush();
    const posts = receiver.received.filter((r) => r.path.endsWith('/v1/traces'));
    expect(posts.map((p) => p.path).sort()).toEqual(['/collector/v1/traces', '/v1/traces']);
    const body = posts[0]!.body as {
      resourceSpans: { resource: { attributes: unknown[] }; scopeSpans: { spans: { status: { code: number; message?: string } }[] }[] }[];
    };
    const spans = body.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans).toHaveLength(2);
    expect(spans[1]!.status).toEqual({ code: 2, message: 'All 1 endpoint tried failed' });
    expect(body.resourceSpans[0]!.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'verdict' } });
    await exporter.close();
  });

  it("sends to the operator's collector as the OpenTelemetry variables name it, with its headers, and names the instance", async () => {
    const { collector } = collectorFromEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/ignored`,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/otlp/traces`,
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc,x-tenant = team one',
    });
    const before = receiver.received.length;
    const exporter = new OtlpExporter(() => [], silentLogger, '1', { collector, instance: 'host-a /srv/verdict' });
    expect(exporter.enabled()).toBe(true);
    exporter.record({ ...span, trace: undefined });
    await exporter.close();
    const [post] = receiver.received.slice(before);
    expect(post!.path).toBe('/otlp/traces');
    expect(post!.headers['authorization']).toBe('Bearer abc');
    expect(post!.headers['x-tenant']).toBe('team one');
    const resource = (post!.body as { resourceSpans: { resource: { attributes: unknown[] } }[] }).resourceSpans[0]!.resource;
    expect(resource.attributes).toContainEqual({ key: 'service.instance.id', value: { stringValue: 'host-a /srv/verdict' } });
  });

  it('the OpenTelemetry variables: a base gets /v1/traces, none is no collector, and what is malformed is named without its value', () => {
    expect(collectorFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      collector: { url: 'http://collector:4318/v1/traces', headers: {} },
    });
    expect(collectorFromEnv({})).toEqual({});
    expect(collectorFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }).problem).toMatch(/must be an http\(s\) URL/);
    expect(collectorFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' }).problem).toBe('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not a URL');
    const bad = collectorFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=s3cret,broken' });
    expect(bad.problem).toBe('OTEL_EXPORTER_OTLP_TRACES_HEADERS: entry 2 is not key=value with a header name');
    expect(bad.problem).not.toContain('s3cret');
  });

  it('sends nothing when no destination is configured', async () => {
    const before = receiver.received.length;
    const exporter = new OtlpExporter(() => [], silentLogger, '1');
    exporter.record({ ...span, trace: undefined });
    await exporter.close();
    expect(receiver.received.length).toBe(before);
  });
});
