import type { WireFormat } from '../../../shared/schemas/inspector';

export interface ProviderTemplate {
  slug: string;
  name: string;
  wireFormat: WireFormat;
  baseUrl: string;
  /** Local model servers answer on loopback and need no key. */
  local: boolean;
}

/**
 * Connection templates for well-known providers. They say how to reach a provider, nothing
 * about models, prices or limits: those come from the provider's own listing or the user.
 */
export const BUNDLED_PROVIDERS: readonly ProviderTemplate[] = [
  { slug: 'openai', name: 'OpenAI', wireFormat: 'openai', baseUrl: 'https://api.openai.com/v1', local: false },
  { slug: 'anthropic', name: 'Anthropic', wireFormat: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', local: false },
  { slug: 'google-ai-studio', name: 'Google AI Studio', wireFormat: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', local: false },
  { slug: 'mistral', name: 'Mistral', wireFormat: 'openai', baseUrl: 'https://api.mistral.ai/v1', local: false },
  { slug: 'groq', name: 'Groq', wireFormat: 'openai', baseUrl: 'https://api.groq.com/openai/v1', local: false },
  { slug: 'together', name: 'Together', wireFormat: 'openai', baseUrl: 'https://api.together.xyz/v1', local: false },
  { slug: 'fireworks', name: 'Fireworks', wireFormat: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1', local: false },
  { slug: 'deepinfra', name: 'DeepInfra', wireFormat: 'openai', baseUrl: 'https://api.deepinfra.com/v1/openai', local: false },
  { slug: 'ollama', name: 'Ollama (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', local: true },
  { slug: 'llama-cpp', name: 'llama.cpp server (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', local: true },
  { slug: 'lm-studio', name: 'LM Studio (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', local: true },
  { slug: 'vllm', name: 'vLLM (local)', wireFormat: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', local: true },
];
