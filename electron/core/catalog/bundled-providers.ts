import type { WireFormat } from '../../../shared/schemas/inspector';

/** Stands in a bundled base URL for what only the user knows (their Cloudflare account id). */
export const ACCOUNT_PLACEHOLDER = '{account_id}';

/** A base URL with the user's account id in place of the placeholder, when it has one and the id is known. */
export const withAccount = (baseUrl: string, account: string | undefined): string =>
  account === undefined ? baseUrl : baseUrl.replace(ACCOUNT_PLACEHOLDER, encodeURIComponent(account));

export interface ProviderTemplate {
  slug: string;
  name: string;
  wireFormat: WireFormat;
  baseUrl: string;
  /** Local model servers answer on loopback and need no key. */
  local: boolean;
  /** Author part of discovered model ids when the provider's names have none (gpt-4o -> openai/gpt-4o). */
  author?: string;
  /** Whether its chat API returns token log-probabilities (top_logprobs). */
  logprobs: boolean;
  /** Whether it lists its models in its wire format's shape (discovery asks only those that do). */
  listsModels?: boolean;
}

/**
 * Connection templates for well-known providers. They say how to reach a provider, nothing
 * about models, prices or limits: those come from the provider's own listing or the user.
 */
export const BUNDLED_PROVIDERS: readonly ProviderTemplate[] = [
  { slug: 'openai', name: 'OpenAI', wireFormat: 'openai', baseUrl: 'https://api.openai.com/v1', local: false, author: 'openai', logprobs: true },
  {
    slug: 'anthropic',
    name: 'Anthropic',
    wireFormat: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    local: false,
    author: 'anthropic',
    logprobs: false,
  },
  {
    slug: 'google-ai-studio',
    name: 'Google AI Studio',
    wireFormat: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    local: false,
    author: 'google',
    logprobs: true,
  },
  { slug: 'mistral', name: 'Mistral', wireFormat: 'openai', baseUrl: 'https://api.mistral.ai/v1', local: false, author: 'mistralai', logprobs: false },
  { slug: 'groq', name: 'Groq', wireFormat: 'openai', baseUrl: 'https://api.groq.com/openai/v1', local: false, logprobs: false },
  { slug: 'together', name: 'Together', wireFormat: 'openai', baseUrl: 'https://api.together.xyz/v1', local: false, logprobs: true },
  { slug: 'fireworks', name: 'Fireworks', wireFormat: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', local: false, logprobs: true },
  { slug: 'deepinfra', name: 'DeepInfra', wireFormat: 'openai', baseUrl: 'https://api.deepinfra.com/v1/openai', local: false, logprobs: true },
  { slug: 'ollama', name: 'Ollama (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', local: true, logprobs: false },
  {
    slug: 'llama-cpp',
    name: 'llama.cpp server (local)',
    wireFormat: 'openai',
    baseUrl: 'http://127.0.0.1:8080/v1',
    local: true,
    author: 'local',
    logprobs: true,
  },
  { slug: 'lm-studio', name: 'LM Studio (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', local: true, logprobs: false },
  { slug: 'vllm', name: 'vLLM (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', local: true, logprobs: true },
  // Hosts of decision models (their models and prices: bundled-decision-models.ts).
  { slug: 'typesafe', name: 'TypeSafe', wireFormat: 'systemone', baseUrl: 'https://api.typesafe.ai/v1', local: false, author: 'typesafe', logprobs: false },
  {
    slug: 'perplexity',
    name: 'Perplexity',
    wireFormat: 'systemone',
    baseUrl: 'https://api.perplexity.ai',
    local: false,
    author: 'perplexity',
    logprobs: false,
    listsModels: false,
  },
  {
    slug: 'openrouter',
    name: 'OpenRouter',
    wireFormat: 'decisions',
    baseUrl: 'https://openrouter.ai/api/v1',
    local: false,
    logprobs: false,
    listsModels: false,
  },
  // Workers AI addresses models under the account: `{account_id}` is the user's to fill in (Settings, beside the key; or a catalog file).
  {
    slug: 'cloudflare',
    name: 'Cloudflare Workers AI',
    wireFormat: 'systemone',
    baseUrl: `https://api.cloudflare.com/client/v4/accounts/${ACCOUNT_PLACEHOLDER}/ai/run`,
    local: false,
    logprobs: false,
    listsModels: false,
  },
];

/** Discovery hints for a provider slug; providers the user adds get none. */
export function providerHints(slug: string): { author?: string; logprobs: boolean; listsModels: boolean } {
  const template = BUNDLED_PROVIDERS.find((p) => p.slug === slug);
  if (!template) return { logprobs: false, listsModels: true };
  return { ...(template.author ? { author: template.author } : {}), logprobs: template.logprobs, listsModels: template.listsModels ?? true };
}
