import { describe, expect, it } from 'vitest';
import { testEndpoint, testModel, testProvider } from '../../test-support/catalog-fixtures';
import type { Candidate } from '../routing/plan';
import { walkRouting, type EndpointOdds } from './routing-walk';

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

const plan = (candidates: Candidate[]) => ({
  modelId: 'acme/judge',
  candidates,
  preferences: undefined,
  account: { only: [], ignore: [], zdr: false },
  needs: NEEDS,
  now: NOW,
});
const quiet: EndpointOdds = { faultRate: 0, rateLimitRate: 0, retryAfterMs: 0 };
/** Each endpoint's share of every answered request over all the walks. */
function shares(walks: ReturnType<typeof walkRouting>): Record<string, number> {
  const total = walks.walks.reduce((n, w) => n + [...w.answered.values()].reduce((a, b) => a + b, 0), 0);
  const out: Record<string, number> = {};
  for (const w of walks.walks)
    for (const [id, n] of w.answered) out[walks.endpoints.get(id)!.provider.slug] = (out[walks.endpoints.get(id)!.provider.slug] ?? 0) + n / total;
  return out;
}

describe('requests walked through the router', () => {
  it('with no failures, load balancing weighs each endpoint by 1/price²', () => {
    // $1 and $2 a million: weights 1 and 1/4, so 80% and 20%.
    const walks = walkRouting({ plan: plan([candidate('cheap', 1), candidate('dear', 2)]), odds: () => quiet, requests: 1000, perSecond: 1 });
    const s = shares(walks);
    expect(s.cheap).toBeCloseTo(0.8, 2);
    expect(s.dear).toBeCloseTo(0.2, 2);
    expect(walks.walks.every((w) => w.unanswered === 0)).toBe(true);
  });

  it("a request's calls to a chat endpoint each meet its faults: two calls that fail half the time leave three requests in four without every answer", () => {
    const odds = () => ({ ...quiet, faultRate: 0.5 });
    const unanswered = (calls: number) => {
      const walked = walkRouting({ plan: { ...plan([candidate('only', 1)]), needs: { ...NEEDS, calls } }, odds, requests: 2000, perSecond: 0, walks: 20 });
      return walked.walks.reduce((n, w) => n + w.unanswered, 0) / (20 * 2000);
    };
    expect(unanswered(1)).toBeCloseTo(0.5, 1);
    expect(unanswered(2)).toBeCloseTo(0.75, 1);
    // A native decisions host answers both questions in one call: half go without, as with one question.
    const only = candidate('only', 1);
    const host = { ...only, endpoint: { ...only.endpoint, host: { name: 'Host' } as never } };
    const walked = walkRouting({ plan: { ...plan([host]), needs: { ...NEEDS, calls: 2 } }, odds, requests: 2000, perSecond: 0, walks: 20 });
    expect(walked.walks.reduce((n, w) => n + w.unanswered, 0) / (20 * 2000)).toBeCloseTo(0.5, 1);
  });

  it('a pace that may be off spreads the walks: an outage that covers a whole run at its pace covers a third of it at a third of the pace', () => {
    // cheap failed 20 s ago: load balancing skips it for 10 s more. 100 requests at 10 a second take 9.9 s.
    const cheap = { ...candidate('cheap', 1), recentFaultAt: NOW - 20_000 };
    const dearCounts = (paceSpread?: number) =>
      walkRouting({
        plan: plan([cheap, candidate('dear', 2)]),
        odds: () => quiet,
        requests: 100,
        perSecond: 10,
        ...(paceSpread ? { paceSpread } : {}),
      }).walks.map((w) => [...w.answered].find(([id]) => id.includes('dear'))?.[1] ?? 0);
    expect(new Set(dearCounts())).toEqual(new Set([100]));
    const spread = dearCounts(3);
    // The fastest walks still end inside the outage; the slowest (a gap of 0.3 s) send the 34 requests before t = 10 s to dear, and a fifth of the rest.
    expect(Math.max(...spread)).toBe(100);
    expect(Math.min(...spread)).toBeLessThan(60);
  });

  it('requests far apart: a failing endpoint hands half its first picks to its fallback, and nothing more', () => {
    // cheap is picked first 80% of the time and answers half of those (40%); the other half fall back to dear (40%);
    // dear is picked first 20% of the time and always answers. dear: 60%, cheap: 40%.
    const odds = (e: { provider: { slug: string } }) => (e.provider.slug === 'cheap' ? { ...quiet, faultRate: 0.5 } : quiet);
    const s = shares(walkRouting({ plan: plan([candidate('cheap', 1), candidate('dear', 2)]), odds, requests: 1000, perSecond: 0 }));
    expect(s.cheap).toBeCloseTo(0.4, 2);
    expect(s.dear).toBeCloseTo(0.6, 2);
  });

  it('requests close together: after each fault the endpoint is skipped for 30 s, so most of the traffic goes to the dear one', () => {
    const odds = (e: { provider: { slug: string } }) => (e.provider.slug === 'cheap' ? { ...quiet, faultRate: 0.1 } : quiet);
    // Ten a second: a fault every second or so on cheap, each keeping it out of load balancing for 300 requests.
    const busy = shares(walkRouting({ plan: plan([candidate('cheap', 1), candidate('dear', 2)]), odds, requests: 3000, perSecond: 10 }));
    expect(busy.dear).toBeGreaterThan(0.9);
    // One every ten minutes: each fault outlives no other request, so the far-apart split holds (cheap 0.8 × 0.9 = 0.72).
    const sparse = shares(walkRouting({ plan: plan([candidate('cheap', 1), candidate('dear', 2)]), odds, requests: 3000, perSecond: 1 / 600 }));
    expect(sparse.cheap).toBeCloseTo(0.72, 2);
  });

  it('starts from the endpoints as they are: one that failed a moment ago is skipped until its 30 s are over', () => {
    const failed = { ...candidate('cheap', 1), recentFaultAt: NOW - 1000 };
    // Four requests a second: the first 29 s (116 requests) go to dear, then the 80/20 split.
    const walks = walkRouting({ plan: plan([failed, candidate('dear', 2)]), odds: () => quiet, requests: 116, perSecond: 4 });
    expect(shares(walks).dear).toBeCloseTo(1, 12);
    const longer = shares(walkRouting({ plan: plan([failed, candidate('dear', 2)]), odds: () => quiet, requests: 1160, perSecond: 4 }));
    // 116 to dear, then 1,044 split 80/20: dear's share (116 + 0.2 × 1,044) / 1,160 = 0.28.
    expect(longer.dear).toBeCloseTo(0.28, 2);
  });

  it("with each endpoint's own time, a stretch on a fast fallback sends more of the run into an outage than one on a slow one", () => {
    // cheap failed a moment ago: it is skipped for 29 s. One request in flight; 300 requests.
    const failed = { ...candidate('cheap', 1), recentFaultAt: NOW - 1000 };
    const dearShare = (dearMs: number) => {
      const ids = new Map([failed, candidate('dear', 2)].map((c) => [c.endpoint.provider.slug, c.endpoint.id]));
      const ms = new Map([
        [ids.get('cheap')!, 1000],
        [ids.get('dear')!, dearMs],
      ]);
      return shares(walkRouting({ plan: plan([failed, candidate('dear', 2)]), odds: () => quiet, requests: 300, perSecond: 1, timeOn: { ms, inFlight: 1 } }))
        .dear!;
    };
    // dear at 100 ms a request: all 290 requests of the 29 s go to it, then 10 split 80/20.
    expect(dearShare(100)).toBeCloseTo((290 + 0.2 * 10) / 300, 2);
    expect(dearShare(100)).toBeGreaterThanOrEqual(290 / 300);
    // dear at 1 s: 29 go to it, then the rest split 80/20 (each of them 1 s on either).
    expect(dearShare(1000)).toBeCloseTo((29 + 0.2 * 271) / 300, 1);
    // Two in flight halve each request's share of the clock: twice as many fit in the 29 s.
    const ids = new Map([failed, candidate('dear', 2)].map((c) => [c.endpoint.provider.slug, c.endpoint.id]));
    const two = walkRouting({
      plan: plan([failed, candidate('dear', 2)]),
      odds: () => quiet,
      requests: 58,
      perSecond: 1,
      timeOn: { ms: new Map([[ids.get('dear')!, 1000]]), inFlight: 2 },
    });
    expect(shares(two).dear).toBeCloseTo(1, 12);
  });

  it('each walk is drawn again, so a run of few requests spreads', () => {
    const odds = (e: { provider: { slug: string } }) => (e.provider.slug === 'cheap' ? { ...quiet, faultRate: 0.05 } : quiet);
    const walks = walkRouting({ plan: plan([candidate('cheap', 1), candidate('dear', 2)]), odds, requests: 50, perSecond: 50 });
    const onDear = walks.walks.map((w) => w.answered.get([...walks.endpoints.values()].find((e) => e.provider.slug === 'dear')!.id) ?? 0);
    expect(new Set(onDear).size).toBeGreaterThan(5);
    expect(walks.walks.length).toBe(200);
  });
});
