import { performance } from 'node:perf_hooks';
import { GENERIC } from '../core/providers/capabilities';
import { planRoute, type Candidate } from '../core/routing/plan';
import type { CatalogEndpoint } from '../core/catalog/types';

/** Routing's planner over 10,000 endpoints of one model: the median ms of a plan, load balanced and sorted with preferences. */
export function planBench(): { loadBalance: number; sorted: number } {
  const provider = (i: number) => ({
    slug: `p${i}`,
    name: `P${i}`,
    wire_format: 'openai' as const,
    base_url: 'http://127.0.0.1:9/v1',
    local: false,
    data_policy: { zdr: i % 3 === 0, collects_data: i % 2 === 0 },
    source: 'file' as const,
    simulated: false,
  });
  const model = {
    id: 'bench/many',
    name: 'Many',
    created: 0,
    description: '',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: null, instruct_type: null, tokenizer: null },
    distillable: null,
    locates_objects: false,
    box_format: null,
    source: 'file' as const,
  };
  const candidates: Candidate[] = Array.from({ length: 10_000 }, (_, i) => {
    const price = 1e-7 * (1 + (i % 97));
    const endpoint: CatalogEndpoint = {
      id: `p${i}:p${i}:bench/many`,
      model,
      provider: provider(i),
      tag: `p${i}`,
      upstreamModel: 'many',
      wire: 'openai',
      host: null,
      capabilities: GENERIC,
      sources: { pricing: 'catalog file', context_length: 'catalog file', max_completion_tokens: null, modalities: null },
      contextLength: 8192,
      maxCompletionTokens: null,
      maxPromptTokens: null,
      pricing: { prompt: String(price), completion: String(price * 2) },
      prices: { prompt: price, completion: price * 2, request: null, image: null, cacheRead: null, cacheWrite: null },
      quantization: 'fp8',
      supportedParameters: ['logprobs'],
      supportsImplicitCaching: false,
      source: 'file',
    };
    return {
      endpoint,
      latency: { p50: (i % 50) / 100, p75: 1, p90: 1, p99: 2 },
      throughput: null,
      successRate1d: 0.99,
      attempts1d: 100,
      recentFaultAt: null,
      paused: false,
      cooldownUntil: null,
      lastFailureAt: null,
    };
  });
  const needs = { parameters: ['logprobs'], promptTokens: 500, completionTokens: 1, images: 0 };
  const time = (preferences: Parameters<typeof planRoute>[0]['preferences']) => {
    const samples: number[] = [];
    for (let i = 0; i < 120; i += 1) {
      const start = performance.now();
      planRoute({ modelId: 'bench/many', candidates, preferences, account: { only: [], ignore: [], zdr: false }, needs, now: Date.now(), random: Math.random });
      if (i >= 20) samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)]!;
  };
  return { loadBalance: time(undefined), sorted: time({ sort: 'latency', zdr: true, preferred_max_latency: 0.3 }) };
}
