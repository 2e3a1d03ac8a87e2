import type { ModelConfig } from '../../../shared/schemas/catalog';
import type { WireFormat } from '../../../shared/schemas/inspector';
import type { Quantization } from '../../../shared/schemas/provider-preferences';

/** How a simulated provider behaves: timing, failures and policy, all scripted and documented. */
export interface SandboxProfile {
  slug: string;
  name: string;
  wireFormat: WireFormat;
  /** Median time to first token (ms) and the spread of its log-normal distribution. */
  latencyMedianMs: number;
  latencySigma: number;
  /** Output tokens per second after the first. */
  tokensPerSecond: number;
  /** Share of requests failing with a server error (500), overload (529) or a reset connection. */
  failureRate: number;
  /** Share of requests answered 429 with Retry-After. */
  rateLimitRate: number;
  retryAfterSeconds: number;
  zdr: boolean | null;
  collectsData: boolean | null;
  quantization: Quantization | null;
  /** USD per token. */
  promptPrice: string;
  completionPrice: string;
  cacheReadPrice: string;
  models: readonly string[];
}

export const SANDBOX_MODELS: readonly ModelConfig[] = [
  {
    id: 'sandbox/baseline-text',
    name: 'Baseline Text (simulated)',
    created: 1_767_225_600,
    description:
      'A transparent baseline, not a language model: answers come from word overlap between the state and each option, turned into label probabilities.',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: 'Other' },
    distillable: true,
    locates_objects: false,
    box_format: null,
  },
  {
    id: 'sandbox/baseline-vision',
    name: 'Baseline Vision (simulated)',
    created: 1_767_225_600,
    description: 'A transparent baseline for images: boxes come from simple image statistics, text answers from word overlap.',
    architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'], modality: 'text+image->text', instruct_type: null, tokenizer: 'Other' },
    distillable: true,
    locates_objects: true,
    box_format: 'gemini-1000',
  },
  {
    id: 'sandbox/sharp-large',
    name: 'Sharp Large (simulated)',
    created: 1_767_225_600,
    description:
      'A simulated large model, priced eight times the baseline and about 2.5 times slower to answer: it weighs what a question says makes it true against what makes it false, and each option by its guidance, with moderate confidence. Word overlap, not a model.',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: 'Other' },
    distillable: true,
    locates_objects: false,
    box_format: null,
  },
  {
    id: 'sandbox/cheap-mini',
    name: 'Cheap Mini (simulated)',
    created: 1_767_225_600,
    description:
      "A simulated small model at a fifth of the baseline's price and twice as quick: the answers of Sharp Large stated nearly surely (probabilities raised to the 5th power), and confidently wrong on one prompt in six. Word overlap, not a model.",
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: 'Other' },
    distillable: true,
    locates_objects: false,
    box_format: null,
  },
  {
    id: 'sandbox/skewed-small',
    name: 'Skewed Small (simulated)',
    created: 1_767_225_600,
    description:
      'A simulated small model at half the baseline price that leans to the common answer: its P(yes) never passes 0.18, and the first option or level gets six times its weight, so it misses the rare class. Word overlap, not a model.',
    architecture: { input_modalities: ['text'], output_modalities: ['text'], modality: 'text->text', instruct_type: null, tokenizer: 'Other' },
    distillable: true,
    locates_objects: false,
    box_format: null,
  },
  {
    id: 'sandbox/decider',
    name: 'Decider (simulated)',
    created: 1_767_225_600,
    description:
      'A simulated decision model: its hosts answer Decisions themselves, in each wire family, from the same transparent baseline (word overlap; image statistics for boxes), rounded to two decimals as decision hosts round.',
    architecture: {
      input_modalities: ['text', 'image'],
      output_modalities: ['decisions'],
      modality: 'text+image->decisions',
      instruct_type: null,
      tokenizer: null,
    },
    distillable: true,
    locates_objects: true,
    box_format: null,
  },
];

const BOTH = ['sandbox/baseline-text', 'sandbox/baseline-vision'];
// Each of the other chat models on two providers, so routing has a choice for each.
const SHARP = 'sandbox/sharp-large';
const MINI = 'sandbox/cheap-mini';
const SKEWED = 'sandbox/skewed-small';

/** A simulated decision host: the sandbox decider behind one wire family, on the hosts' shared timing and prices. */
function decisionHost(
  slug: string,
  name: string,
  wireFormat: SandboxProfile['wireFormat'],
  latencyMedianMs: number,
  limits: Pick<SandboxProfile, 'rateLimitRate' | 'retryAfterSeconds' | 'zdr'>,
  promptPrice: string,
  cacheReadPrice: string,
): SandboxProfile {
  return {
    slug,
    name,
    wireFormat,
    latencyMedianMs,
    latencySigma: 0.2,
    tokensPerSecond: 0,
    failureRate: 0.01,
    rateLimitRate: limits.rateLimitRate,
    retryAfterSeconds: limits.retryAfterSeconds,
    zdr: limits.zdr,
    collectsData: false,
    quantization: null,
    promptPrice,
    completionPrice: '0',
    cacheReadPrice,
    models: ['sandbox/decider'],
  };
}

export const SANDBOX_PROFILES: readonly SandboxProfile[] = [
  {
    slug: 'sandbox-swift',
    name: 'Swift (simulated)',
    wireFormat: 'openai',
    latencyMedianMs: 120,
    latencySigma: 0.25,
    tokensPerSecond: 180,
    failureRate: 0.01,
    rateLimitRate: 0,
    retryAfterSeconds: 1,
    zdr: true,
    collectsData: false,
    quantization: 'fp8',
    promptPrice: '0.0000012',
    completionPrice: '0.0000036',
    cacheReadPrice: '0.0000003',
    models: [...BOTH, SHARP, MINI],
  },
  {
    slug: 'sandbox-steady',
    name: 'Steady (simulated)',
    wireFormat: 'openai',
    latencyMedianMs: 300,
    latencySigma: 0.15,
    tokensPerSecond: 90,
    failureRate: 0.005,
    rateLimitRate: 0.02,
    retryAfterSeconds: 2,
    zdr: true,
    collectsData: false,
    quantization: 'bf16',
    promptPrice: '0.0000005',
    completionPrice: '0.0000015',
    cacheReadPrice: '0.000000125',
    models: [...BOTH, SHARP, SKEWED],
  },
  {
    slug: 'sandbox-bargain',
    name: 'Bargain (simulated)',
    wireFormat: 'openai',
    latencyMedianMs: 650,
    latencySigma: 0.4,
    tokensPerSecond: 45,
    failureRate: 0.03,
    rateLimitRate: 0,
    retryAfterSeconds: 1,
    zdr: false,
    collectsData: true,
    quantization: 'int8',
    promptPrice: '0.00000015',
    completionPrice: '0.0000006',
    cacheReadPrice: '0.0000000375',
    models: ['sandbox/baseline-text', MINI],
  },
  {
    slug: 'sandbox-flaky',
    name: 'Flaky (simulated)',
    wireFormat: 'openai',
    latencyMedianMs: 200,
    latencySigma: 0.6,
    tokensPerSecond: 120,
    failureRate: 0.15,
    rateLimitRate: 0.05,
    retryAfterSeconds: 3,
    zdr: null,
    collectsData: null,
    quantization: null,
    promptPrice: '0.0000003',
    completionPrice: '0.000001',
    cacheReadPrice: '0.000000075',
    models: ['sandbox/baseline-text', SKEWED],
  },
  // Decision hosts, one per wire family: another gateway's alpha route (boxes too), System One, OpenAI Decisions.
  decisionHost('sandbox-oracle', 'Oracle (simulated)', 'decisions', 250, { rateLimitRate: 0, retryAfterSeconds: 1, zdr: true }, '0.0000002', '0.00000005'),
  decisionHost('sandbox-verity', 'Verity (simulated)', 'systemone', 90, { rateLimitRate: 0, retryAfterSeconds: 1, zdr: true }, '0.00000005', '0.00000005'),
  decisionHost('sandbox-arbiter', 'Arbiter (simulated)', 'openai-decisions', 160, { rateLimitRate: 0.01, retryAfterSeconds: 2, zdr: false }, '0.0000001', '0'),
];
