import type { ModelSummary } from '../../../shared/schemas/inspector';

/** How an answer was measured, in words (a method may end in `+temperature(T=…)` when a calibration adjusted it). */
const METHOD_TEXT: Record<string, string> = {
  native: 'the decision host itself (passed through)',
  logprobs: 'token probabilities',
  verbalized: 'stated probabilities',
  box: 'a box the model stated',
  remote: 'a remote gateway',
};

export function methodText(method: string): string {
  const [base, ...adjusted] = method.split('+');
  const text = METHOD_TEXT[base!] ?? base!;
  return adjusted.length > 0 ? `${text}, then ${adjusted.join(', ')}` : text;
}

/** How a model's answers are measured, for pickers. */
const KIND_TEXT: Record<ModelSummary['answering'], string> = {
  native: 'decision model: answered natively by its hosts',
  method: 'chat model: asked by a method here',
  both: 'answered natively on some endpoints, by a method on others',
};

/** One line under a model's name: what kind it is and whether it can be asked now. */
export function modelKind(m: ModelSummary): string {
  const keyless = m.callable_endpoints === 0 ? ' · needs a provider key (Settings)' : '';
  return `${KIND_TEXT[m.answering]}${keyless}`;
}

/** A short tag beside a model id. */
export const kindTag = (m: ModelSummary): string => (m.answering === 'native' ? 'native' : m.answering === 'both' ? 'native + method' : 'by method');
