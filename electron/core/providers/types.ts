import type { State } from '../../../shared/schemas/decisions-request';
import type { Answer } from '../../../shared/schemas/answer';
import type { Question } from '../../../shared/schemas/question';
import type { DecisionHost } from './decision-host';
import type { WireFormat } from '../../../shared/schemas/inspector';
import type { Clock } from '../clock';
import type { UpstreamHttp } from './http';
import type { CancelSignal } from '../cancel';
import type { Capabilities } from './capabilities';

export type ContentPart = { type: 'text'; text: string; cache?: boolean } | { type: 'image'; mediaType: string; base64: string };

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: ContentPart[];
}

/** One chat call in a wire-neutral shape; each adapter turns it into its provider's request. */
export interface ChatRequest {
  system?: string;
  messages: ChatMessage[];
  /** Tokens the answer itself needs; room for thinking a model cannot switch off is added per endpoint. */
  maxTokens: number;
  /** Sent only where the endpoint accepts a temperature. */
  temperature?: number;
  /** Ask for the least reasoning the model allows (label questions need none). */
  minimalReasoning?: boolean;
  /** Ask for the top-N alternatives at each output position. */
  topLogprobs?: number;
  /** Ask for JSON matching this schema. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** `provider.options[<slug>]`, merged into the provider's request body. */
  options?: Record<string, unknown> | undefined;
}

export interface TokenAlternatives {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface UpstreamUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** Of the output, tokens spent reasoning, where the provider says (they are output all the same). */
  reasoningTokens?: number;
  /** The provider's own cost figure, USD, when it reports one. */
  cost: number | null;
}

export interface Timings {
  ttfbMs: number;
  firstTokenMs: number | null;
  totalMs: number;
}

export interface ChatResult {
  text: string;
  tokens: TokenAlternatives[] | null;
  usage: UpstreamUsage;
  timings: Timings;
  upstreamId: string | null;
  /** Why the model stopped, in the provider's words (`stop`, `length`, `end_turn`, `MAX_TOKENS`…), when it said. */
  finishReason?: string | null;
}

/** A question the host declined to answer (OpenAI's per-question refusal); the others may still be answered. */
export type Refusal = { type: 'refusal' };
export type NativeAnswer = Answer | Refusal;

/** A Decisions request as a native host is asked it; each adapter turns it into its host's wire. */
export interface NativeAsk {
  /** The state as the caller sent it (a host that takes JSON gets its structure). */
  state: State;
  /** The same state as parts: its text, and its images as they will be judged (upright). */
  parts: ContentPart[];
  /** In the caller's order; names are the caller's. */
  questions: Readonly<Record<string, Question>>;
  /** Images sent once under a name (the request's `assets`), as they will be judged. */
  assets: readonly { key: string; image: Extract<ContentPart, { type: 'image' }> }[];
}

export interface DecideResult {
  /** By question name, in the host's words translated to the spec's shape; numbers as the host gave them. */
  answers: Record<string, NativeAnswer>;
  usage: UpstreamUsage;
  timings: Timings;
}

export interface Target {
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
  /** What this endpoint accepts (its provider folder's table, the catalog file, what it refused before). */
  capabilities: Capabilities;
  /** How a host that answers Decisions itself is reached and read (null for chat endpoints). */
  host: DecisionHost | null;
}

export interface CallContext {
  http: UpstreamHttp;
  clock: Clock;
  signal: CancelSignal;
  /** Called once, when the first output token arrives (the provider has read the whole prompt). */
  onFirstToken?: (() => void) | undefined;
}

/** One folder per wire format under providers/, each exporting one of these. */
export interface ProviderAdapter {
  wireFormat: WireFormat;
  chat?(target: Target, request: ChatRequest, ctx: CallContext): Promise<ChatResult>;
  decide?(target: Target, ask: NativeAsk, ctx: CallContext): Promise<DecideResult>;
}
