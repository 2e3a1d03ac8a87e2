import { DecisionsRequestSchema } from '../../../shared/schemas/decisions-request';
import type { Answer } from '../../../shared/schemas/answer';
import { overlap, softmax, words } from './baseline';
import type { SandboxProfile } from './profiles';
import { guidanceText } from '../validation';
import { estimateTokens } from '../decisions/state';


/** The native Decisions answer of a simulated provider, from the same overlap baseline. */
export function sandboxDecide(body: unknown, profile: SandboxProfile): { status: number; body: unknown } {
  const parsed = DecisionsRequestSchema.safeParse(body);
  if (!parsed.success) return { status: 400, body: { error: { code: 400, message: 'invalid DecisionsRequest' } } };
  const request = parsed.data;
  const stateText = guidanceText(request.state);
  const state = words(stateText);
  const answers: Record<string, Answer> = {};
  for (const [name, q] of Object.entries(request.questions)) {
    if (q.type === 'box') return { status: 400, body: { error: { code: 400, message: `question "${name}": this provider cannot locate objects` } } };
    if (q.type === 'noul') {
      answers[name] = { type: 'noul', noul: 0.1 + 0.8 * overlap(state, guidanceText(q.instructions)) };
    } else if (q.type === 'choice') {
      const names = Object.keys(q.criteria);
      const p = softmax(names.map((n) => overlap(state, `${n} ${guidanceText(q.criteria[n])}`)), 0.15);
      const best = p.indexOf(Math.max(...p));
      answers[name] = { type: 'choice', choice: names[best]!, confidence: p[best]!, probabilities: Object.fromEntries(names.map((n, i) => [n, p[i]!])) };
    } else {
      const p = softmax(q.criteria.map((c) => overlap(state, guidanceText(c))), 0.15);
      answers[name] = {
        type: 'score',
        score: p.reduce((s, pi, i) => s + i * pi, 0),
        probabilities: Object.fromEntries(p.map((pi, i) => [String(i), pi])),
        legend: Object.fromEntries(q.criteria.map((c, i) => [String(i), c])),
      };
    }
  }
  const input = estimateTokens(stateText) + Object.keys(request.questions).length * 40;
  const output = Object.keys(request.questions).length;
  return {
    status: 200,
    body: {
      id: `dec-sbx-${Date.now().toString(36)}`,
      model: request.model,
      provider: profile.name,
      answers,
      usage: { input_tokens: input, output_tokens: output, cost: input * Number(profile.promptPrice) + output * Number(profile.completionPrice) },
    },
  };
}
