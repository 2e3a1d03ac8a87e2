import { PNG } from 'pngjs';
import type { Scenario } from './gateway-rows';

/** The gateway bench's scenarios (gateway.ts): what a client sends on each path, and which targets apply. */

/** About 1 KB of state, as a short customer message with context. */
const STATE_1KB =
  'Order 1042 was promised for Monday. The customer wrote on Wednesday: the parcel came two days late, the box was dented and one of the three mugs inside was cracked. '
    .repeat(6)
    .slice(0, 1024);
/** About 5,000 tokens of state (a support thread), at about four characters a token. */
const STATE_5K_TOKENS = Array.from(
  { length: 200 },
  (_, i) => `Message ${i + 1}: the customer asks again about order ${1000 + i}, which shipped late and arrived with a cracked mug. `,
)
  .join('')
  .slice(0, 20_000);
const QUESTION = 'Did the parcel arrive late?';
const SIX = Object.fromEntries(
  ['late', 'damaged', 'refund', 'angry', 'repeat', 'resolved'].map((name) => [name, { type: 'noul', instructions: `Is the thread about something ${name}?` }]),
);

/** A 1000 × 1000 PNG with gradients, shapes and grain, so it compresses like a photo rather than a flat fill. */
function photoLikePng(): string {
  const png = new PNG({ width: 1000, height: 1000 });
  let seed = 7;
  const grain = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 24) - 12;
  for (let y = 0; y < 1000; y += 1) {
    for (let x = 0; x < 1000; x += 1) {
      const i = (y * 1000 + x) * 4;
      const inBox = x > 180 && x < 550 && y > 210 && y < 640;
      png.data[i] = Math.max(0, Math.min(255, (inBox ? 200 : x / 4) + grain()));
      png.data[i + 1] = Math.max(0, Math.min(255, (inBox ? 60 : y / 4) + grain()));
      png.data[i + 2] = Math.max(0, Math.min(255, 128 + grain()));
      png.data[i + 3] = 255;
    }
  }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

export function scenarios(): Scenario[] {
  const image = photoLikePng();
  return [
    {
      name: '(a) OpenAI-format streaming with logprobs, 1 KB state, one noul question',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: true,
      floor: true,
      pairShare: 1,
    },
    {
      name: '(a) on PostgreSQL: the same request, with keys, spend and figures on a PostgreSQL server on this machine',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 1,
      postgres: true,
      tag: '(a) on PostgreSQL',
    },
    {
      name: '(a) on PostgreSQL + Redis: the same request on a key with a rate and a credit limit, admitted on Redis',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 1,
      postgres: true,
      redis: true,
      tag: '(a) on PostgreSQL + Redis',
    },
    {
      name: '(b) six noul questions on a 5,000-token state, first then the rest',
      gatewayBody: JSON.stringify({ model: 'bench/chat', state: STATE_5K_TOKENS, questions: SIX }),
      targets: false,
      pairShare: 0.25,
    },
    {
      name: '(c) Anthropic Messages with stated probabilities, 1 KB state',
      gatewayBody: JSON.stringify({ model: 'bench/claude', state: STATE_1KB, questions: { late: { type: 'noul', instructions: QUESTION } } }),
      targets: false,
      pairShare: 0.5,
    },
    {
      name: `(d) a box question on a 1-megapixel PNG (${Math.round((image.length * 3) / 4 / 1024)} KiB)`,
      gatewayBody: JSON.stringify({
        model: 'bench/vision',
        state: [{ type: 'image_url', image_url: { url: image } }],
        questions: { parcel: { type: 'box', instructions: 'the parcel' } },
      }),
      targets: false,
      pairShare: 0.1,
    },
    {
      name: '(e) native Decisions passthrough, one-line state',
      gatewayBody: JSON.stringify({ model: 'bench/echo', state: 'The parcel came late.', questions: { q: { type: 'noul', instructions: 'Was it late?' } } }),
      targets: true,
      pairShare: 1,
    },
  ];
}
