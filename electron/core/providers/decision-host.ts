import type { QuestionType } from '../../../shared/schemas/question';

/**
 * What a host that answers Decisions itself takes and gives, one row per host (and model where
 * they differ), each naming the document it comes from. Routing reads the limits (an endpoint
 * that cannot take a request is not tried), the adapter reads how to send (path, images, headers)
 * and how to read (rounding, errors, usage). A value no document gives is null: no limit is
 * assumed, and the host's own refusal decides.
 */
export interface DecisionHost {
  /** The host as people name it (TypeSafe, OpenAI, Perplexity…). */
  name: string;
  /** Appended to the provider's base URL; `{model}` stands for the upstream model name. */
  path: string;
  /** Question types the host answers; a request with another type goes elsewhere. */
  questionTypes: readonly QuestionType[];
  /**
   * How images travel: not at all; as `image_url` parts inside an array `state` (Perplexity);
   * as OpenRouter's `assets` map; as a top-level `images` array of data URLs (Cloudflare, Liquid);
   * as multipart file parts (TypeSafe's image beta); as OpenAI's `input_image` parts.
   */
  images: 'none' | 'state-parts' | 'assets' | 'images-array' | 'multipart' | 'input-image';
  /** Whether it takes an `assets` map as sent (OpenRouter's); otherwise assets travel as its images do. */
  assets: boolean;
  limits: HostLimits;
  /** Decimal places of the host's probabilities and scores (its answers are checked within them); null: not declared. */
  rounding: Rounding | null;
  /** Whether output tokens are billed (every decision host so far: no). */
  outputBilled: boolean;
  /** Whether guidance (instructions, criteria) may be a JSON object or array, or must be text. */
  guidance: 'structured' | 'text';
  /** Headers the host needs beyond the key (an opt-in to a beta). */
  headers?: Readonly<Record<string, string>>;
  /** What the host offers that is not used here, and why (said when a request needs it). */
  gaps?: string;
  /** How errors and answers are wrapped: bare, or Cloudflare's `{result, success, errors, messages}`. */
  envelope: 'none' | 'cloudflare';
  /** Text items of an array state as plain strings (OpenRouter reads `{type: "text"}` parts as JSON), or as sent. */
  textItems: 'strings' | 'as-sent';
  /** The documents the row comes from. */
  source: string;
}

export interface Rounding {
  probabilityDecimals: number;
  scoreDecimals: number;
}

export interface HostLimits {
  questions: number | null;
  minOptions: number;
  maxOptions: number | null;
  minLevels: number;
  maxLevels: number | null;
  images: number | null;
  /** Tokens of state and questions together the host reads; beyond it the request is refused (or worse, cut). */
  contextTokens: number | null;
  /** Tokens of state and the longest single question (TypeSafe reads each question with the state). */
  questionContextTokens: number | null;
}

/** One row of a provider folder's host table: which providers and models it covers, over the family's defaults. */
export interface DecisionHostRow {
  providers: readonly string[] | '*';
  model: RegExp;
  host: Partial<Omit<DecisionHost, 'limits'>> & { limits?: Partial<HostLimits> };
  source: string;
}

/** The first matching row per field, most specific first, over the family's defaults. */
export function lookUpHost(table: readonly DecisionHostRow[], provider: string, model: string, base: DecisionHost): DecisionHost {
  const id = model.toLowerCase();
  let host: DecisionHost = { ...base, limits: { ...base.limits } };
  const sources: string[] = [];
  const said = new Set<string>();
  for (const row of table) {
    if (row.providers !== '*' && !row.providers.includes(provider)) continue;
    if (!row.model.test(id)) continue;
    const { limits, ...rest } = row.host;
    for (const [k, v] of Object.entries(rest)) {
      if (said.has(k)) continue;
      said.add(k);
      host = { ...host, [k]: v };
    }
    for (const [k, v] of Object.entries(limits ?? {})) {
      if (said.has(`limits.${k}`)) continue;
      said.add(`limits.${k}`);
      host.limits = { ...host.limits, [k]: v };
    }
    sources.push(row.source);
  }
  return { ...host, source: sources.length > 0 ? [...new Set(sources)].join('; ') : base.source };
}
