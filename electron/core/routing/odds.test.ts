import { describe, expect, it } from 'vitest';
import { testEndpoint, testModel, testProvider } from '../../test-support/catalog-fixtures';
import { routingOdds } from './odds';
import type { Candidate } from './plan';

const NOW = 1_800_000_000_000;
const NEEDS = { parameters: [], promptTokens: 1_000_000, completionTokens: 0, images: 0 };
const model = testModel('acme/judge');

/** An endpoint at `usd` per million prompt tokens, with no figures yet. */
function candidate(slug: string, usd: number): Candidate {
  const endpoint = testEndpoint({ provider: testProvider(slug), model, prices: { prompt: usd / 1e6, completion: 0 } });
  return {
    endpoint,
    latency: null,
    throughput: null,
    successRate1d: null,
    attempts1d: 0,
    recentFaultAt: null,
    paused: false,
    cooldownUntil: null,
    lastFailureAt: null,
  };
}

const input = (candidates: Candidate[]) => ({
  modelId: 'acme/judge',
  candidates,
  preferences: undefined,
  account: { only: [], ignore: [], zdr: false },
  needs: NEEDS,
  now: NOW,
});
const share = (odds: ReturnType<typeof routingOdds>, slug: string) => [...odds.answers.values()].find((a) => a.endpoint.provider.slug === slug)?.share ?? 0;

describe('where requests go, asked of the router', () => {
  it('with no failures, load balancing weighs each endpoint by 1/price²', () => {
    // $1 and $2 a million: weights 1 and 1/4, so 80% and 20%.
    const odds = routingOdds(input([candidate('cheap', 1), candidate('dear', 2)]), () => ({ faultRate: 0 }), 5);
    expect(share(odds, 'cheap')).toBeCloseTo(0.8, 2);
    expect(share(odds, 'dear')).toBeCloseTo(0.2, 2);
    expect(odds.answered).toBeCloseTo(1, 9);
  });

  it('a failing endpoint hands half its first picks to its fallback (no traffic: never in an outage)', () => {
    // cheap is picked first 80% of the time and answers half of those (40%); the other half fall back to dear (40%);
    // dear is picked first 20% of the time and always answers. dear: 60%, cheap: 40%.
    const records = (e: { provider: { slug: string } }) => ({ faultRate: e.provider.slug === 'cheap' ? 0.5 : 0 });
    const odds = routingOdds(input([candidate('cheap', 1), candidate('dear', 2)]), records, 0);
    expect(share(odds, 'cheap')).toBeCloseTo(0.4, 2);
    expect(share(odds, 'dear')).toBeCloseTo(0.6, 2);
  });

  it('under load, an endpoint failing now and then is skipped for 30 s after each fault, and its traffic goes to the dear one', () => {
    const records = (e: { provider: { slug: string } }) => ({ faultRate: e.provider.slug === 'cheap' ? 0.1 : 0 });
    const quiet = routingOdds(input([candidate('cheap', 1), candidate('dear', 2)]), records, 0.01);
    const busy = routingOdds(input([candidate('cheap', 1), candidate('dear', 2)]), records, 10);
    // Quiet: rarely in an outage, so close to the no-outage split (cheap 0.8 × 0.9 = 0.72).
    expect(share(quiet, 'cheap')).toBeGreaterThan(0.6);
    // Busy: a fault every second or so keeps cheap in an outage most of the time.
    expect(share(busy, 'dear')).toBeGreaterThan(0.75);
    // The fixed point holds: cheap's chance of an outage is what its traffic and fault rate give.
    const attemptsOnCheap = busy.attempts.get([...busy.answers.values()].find((a) => a.endpoint.provider.slug === 'cheap')!.endpoint.id)!;
    const outage = 1 - Math.exp(-0.1 * attemptsOnCheap * 10 * 30);
    const inOutage = busy.states.filter((s) => (s.answers.get([...busy.answers.keys()].find((k) => k.startsWith('cheap'))!) ?? 0) < 0.5);
    expect(inOutage.reduce((p, s) => p + s.probability, 0)).toBeCloseTo(outage, 2);
  });
});
