import { GENERIC, lookUp, type Capabilities, type CapabilityRow } from '../capabilities';

const OPENAI_CHAT = 'https://platform.openai.com/docs/api-reference/chat/create';
const OPENAI_REASONING = 'https://platform.openai.com/docs/guides/reasoning';

/**
 * OpenAI-compatible chat completions, by provider and model family, most specific first.
 * Each row names the document it comes from.
 */
export const OPENAI_CAPABILITIES: readonly CapabilityRow[] = [
  // OpenAI reasoning models: max_completion_tokens only, no temperature, no log-probabilities.
  {
    providers: ['openai'],
    model: /^gpt-5(\.\d+)?-chat/,
    caps: { tokenLimit: 'max_completion_tokens', topLogprobs: 0, temperature: true, reasoning: 'none', structured: 'json_schema' },
    source: OPENAI_CHAT,
  },
  {
    providers: ['openai'],
    model: /^gpt-5\.[1-9]/,
    caps: {
      tokenLimit: 'max_completion_tokens',
      temperature: false,
      topLogprobs: 0,
      reasoning: 'effort',
      minimalEffort: 'none',
      thinkingRoom: 1024,
      structured: 'json_schema',
    },
    source: OPENAI_REASONING,
  },
  {
    providers: ['openai'],
    model: /^gpt-5/,
    caps: {
      tokenLimit: 'max_completion_tokens',
      temperature: false,
      topLogprobs: 0,
      reasoning: 'effort',
      minimalEffort: 'minimal',
      thinkingRoom: 1024,
      structured: 'json_schema',
    },
    source: OPENAI_REASONING,
  },
  {
    providers: ['openai'],
    model: /^o1-(mini|preview)/,
    caps: { systemPrompt: false, structured: 'none' },
    source: `${OPENAI_REASONING} (o1-mini and o1-preview: no system or developer messages, no structured outputs)`,
  },
  {
    providers: ['openai'],
    model: /^o\d/,
    caps: {
      tokenLimit: 'max_completion_tokens',
      temperature: false,
      topLogprobs: 0,
      reasoning: 'effort',
      minimalEffort: 'low',
      thinkingRoom: 4096,
      structured: 'json_schema',
    },
    source: OPENAI_REASONING,
  },
  // Classic chat models: up to 20 alternatives per position.
  { providers: ['openai'], model: /./, caps: { tokenLimit: 'max_completion_tokens', topLogprobs: 20, structured: 'json_schema' }, source: OPENAI_CHAT },

  // Mistral: no stream_options (422 extra_forbidden), no log-probabilities; usage arrives in the last chunk anyway.
  {
    providers: ['mistral'],
    model: /^magistral/,
    caps: { streamUsage: false, topLogprobs: 0, structured: 'json_schema', thinkingRoom: 2048 },
    source: 'https://docs.mistral.ai/capabilities/reasoning',
  },
  {
    providers: ['mistral'],
    model: /./,
    caps: { streamUsage: false, topLogprobs: 0, structured: 'json_schema' },
    source: 'https://docs.mistral.ai/api/#tag/chat',
  },

  // Groq: logprobs, logit_bias and top_logprobs are refused; reasoning models take reasoning_effort.
  {
    providers: ['groq'],
    model: /gpt-oss/,
    caps: { tokenLimit: 'max_completion_tokens', topLogprobs: 0, reasoning: 'effort', minimalEffort: 'low', thinkingRoom: 2048, structured: 'json_object' },
    source: 'https://console.groq.com/docs/reasoning',
  },
  {
    providers: ['groq'],
    model: /qwen3|deepseek-r1/,
    caps: { tokenLimit: 'max_completion_tokens', topLogprobs: 0, reasoning: 'effort', minimalEffort: 'none', thinkingRoom: 2048, structured: 'json_object' },
    source: 'https://console.groq.com/docs/reasoning',
  },
  {
    providers: ['groq'],
    model: /./,
    caps: { tokenLimit: 'max_completion_tokens', topLogprobs: 0, structured: 'json_object' },
    source: 'https://console.groq.com/docs/openai',
  },

  // Together: `logprobs` is an integer (how many alternatives), answered as a map per position; usage in the last chunk.
  {
    providers: ['together'],
    model: /deepseek-r1|qwq|thinking/,
    caps: { topLogprobs: 0, streamUsage: false, thinkingRoom: 4096, structured: 'json_schema' },
    source: 'https://docs.together.ai/docs/reasoning-models',
  },
  {
    providers: ['together'],
    model: /./,
    caps: { topLogprobs: 20, logprobsParam: 'integer', streamUsage: false, structured: 'json_schema' },
    source: 'https://docs.together.ai/reference/chat-completions-1',
  },

  // Fireworks: up to 5 alternatives; usage in the last chunk without stream_options.
  {
    providers: ['fireworks'],
    model: /./,
    caps: { topLogprobs: 5, streamUsage: false, structured: 'json_schema' },
    source: 'https://docs.fireworks.ai/api-reference/post-chatcompletions',
  },

  // DeepInfra: OpenAI's parameters, up to 20 alternatives.
  { providers: ['deepinfra'], model: /./, caps: { topLogprobs: 20, structured: 'json_object' }, source: 'https://deepinfra.com/docs/openai_api' },

  // Local servers.
  {
    providers: ['vllm'],
    model: /./,
    caps: { topLogprobs: 20, structured: 'json_schema' },
    source: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
  },
  {
    providers: ['llama-cpp'],
    model: /./,
    caps: { topLogprobs: 20, structured: 'json_schema' },
    source: 'https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md',
  },
  {
    providers: ['ollama'],
    model: /./,
    caps: { topLogprobs: 0, structured: 'json_schema' },
    source: 'https://github.com/ollama/ollama/blob/main/docs/openai.md',
  },
  { providers: ['lm-studio'], model: /./, caps: { topLogprobs: 0, structured: 'json_schema' }, source: 'https://lmstudio.ai/docs/app/api/endpoints/openai' },
];

/** An OpenAI-compatible server nobody described: JSON-schema output is common, and refused once, it is learned. */
const BASE: Capabilities = { ...GENERIC, structured: 'json_schema' };

export const openaiCapabilities = (provider: string, model: string): Capabilities => lookUp(OPENAI_CAPABILITIES, provider, model, BASE);
