import type * as Hdr from 'hdr-histogram-js';
import { onFirstUse } from '../on-first-use';
import type { PercentileStats } from '../../../shared/schemas/endpoint';
import type { Clock } from '../clock';
import type { MetricsStorage, MinuteFigures } from '../store/ports';
import { PROVIDER_FAULTS, type AttemptRecord } from './attempt';

const MINUTE = 60_000;
const FIGURES_TTL_MS = 1_000;
/** Minute figures reach the disk this often (a crash loses at most this much of them); other instances' are read as often. */
const PERSIST_EVERY_MS = 10_000;
const DAY_MINUTES = 24 * 60;
const HISTOGRAM_MINUTES = 30;
/** Latency in ms up to 10 minutes; throughput in hundredths of a token per second up to 100k tok/s. */
const LATENCY_MAX = 600_000;
const THROUGHPUT_SCALE = 100;
const THROUGHPUT_MAX = 100_000 * THROUGHPUT_SCALE;

/** The HDR histograms, loaded with the first figure measured or read (a fresh server holds none). */
const hdr = onFirstUse<typeof Hdr>('hdr-histogram-js');

interface Bucket {
  minute: number;
  attempts: number;
  faults: number;
  latency: Hdr.Histogram | null;
  throughput: Hdr.Histogram | null;
}

const newHistogram = (max: number): Hdr.Histogram =>
  hdr().build({ lowestDiscernibleValue: 1, highestTrackableValue: max, numberOfSignificantValueDigits: 2, bitBucketSize: 'packed', useWebAssembly: false });

export interface EndpointFigures {
  latency: PercentileStats | null;
  throughput: PercentileStats | null;
  uptime5m: number | null;
  uptime30m: number | null;
  uptime1d: number | null;
  attempts5m: number;
  attempts30m: number;
  attempts1d: number;
  /** Successful attempts over all attempts in the last day, for quality-first ordering. */
  successRate1d: number | null;
  /** ms since epoch of the last provider-fault failure within the last minute, if any. */
  recentFaultAt: number | null;
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

/**
 * Per-endpoint figures over sliding windows, from minute buckets: counts for a day, HDR
 * histograms for the last 30 minutes. O(1) per attempt and bounded memory per endpoint; the
 * buckets themselves are stored (one row per endpoint and minute, not per request) and reloaded
 * at start, so a restart keeps the day.
 *
 * Where a team's instances share the store, each stores its own buckets and reads the others' (only
 * what changed) every few seconds: figures count the whole fleet's attempts, and the merged
 * histograms read the same percentiles as one instance that saw all of them.
 */
export class EndpointMetrics {
  private readonly buckets = new Map<string, Bucket[]>();
  /** Other instances' buckets by endpoint, then by instance and minute. */
  private readonly peers = new Map<string, Map<string, Bucket>>();
  private peerCursor = 0;
  private readonly lastFault = new Map<string, number>();
  private readonly cache = new Map<string, { at: number; figures: EndpointFigures }>();

  /** Buckets changed since they were last written, with their endpoint (one bucket per endpoint and minute). */
  private readonly dirty = new Map<Bucket, string>();
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly storage: MetricsStorage,
    private readonly clock: Clock,
    /** This instance's name in the store (its rows are its own; any other name's are a peer's). */
    private readonly instance: string,
  ) {
    this.timer = setInterval(() => {
      this.persist();
      // Unreadable (the database away): the others' figures stay as last read until it is back.
      void this.readPeers().catch(() => {});
    }, PERSIST_EVERY_MS);
    this.timer.unref();
  }

  static async open(storage: MetricsStorage, clock: Clock, instance = 'local'): Promise<EndpointMetrics> {
    const metrics = new EndpointMetrics(storage, clock, instance);
    try {
      // A day of minute figures (two, for slack) and a week of failed attempts are kept.
      const now = clock.now();
      await storage.prune(Math.floor(now / MINUTE) - 2 * DAY_MINUTES, now - 7 * DAY_MINUTES * MINUTE);
      await metrics.reload();
    } catch (error) {
      clearInterval(metrics.timer);
      throw error;
    }
    return metrics;
  }

  /** Rebuilds the windows from the stored minute figures, so a restart keeps the day. */
  private async reload(): Promise<void> {
    const nowMinute = Math.floor(this.clock.now() / MINUTE);
    for (const row of await this.storage.minutesAfter(nowMinute - DAY_MINUTES)) {
      if (row.instance !== undefined && row.instance !== this.instance) {
        this.setPeer(row, nowMinute);
        continue;
      }
      const list = this.buckets.get(row.endpointId) ?? [];
      list.push(bucketOf(row, nowMinute));
      this.buckets.set(row.endpointId, list);
    }
    await this.readPeers();
  }

  private setPeer(row: MinuteFigures, nowMinute: number): void {
    const byMinute = this.peers.get(row.endpointId) ?? new Map<string, Bucket>();
    this.peers.set(row.endpointId, byMinute);
    const key = `${row.instance ?? ''}\u0000${row.minute}`;
    destroy(byMinute.get(key));
    byMinute.set(key, bucketOf(row, nowMinute));
    this.cache.delete(row.endpointId);
  }

  /** Reads what the other instances stored since the last look, and the fleet's provider faults of the last minute. */
  private async readPeers(): Promise<void> {
    const now = this.clock.now();
    const nowMinute = Math.floor(now / MINUTE);
    const { rows, cursor } = await this.storage.minutesOfOthers(this.instance, this.peerCursor, nowMinute - DAY_MINUTES);
    this.peerCursor = cursor;
    for (const row of rows) this.setPeer(row, nowMinute);
    for (const byMinute of this.peers.values())
      for (const [key, bucket] of byMinute) {
        if (bucket.minute <= nowMinute - DAY_MINUTES) {
          destroy(bucket);
          byMinute.delete(key);
        } else if (bucket.minute <= nowMinute - HISTOGRAM_MINUTES) dropHistograms(bucket);
      }
    // The last minute's provider faults (the 30-second outage rule) come from the failure log, every instance's.
    for (const f of await this.storage.lastFaults(now - MINUTE))
      if (f.at > (this.lastFault.get(f.endpointId) ?? 0)) {
        this.lastFault.set(f.endpointId, f.at);
        this.cache.delete(f.endpointId);
      }
  }

  /** Stores this instance's figures and reads the other instances' now, not at the next tick. */
  async sync(): Promise<void> {
    this.persist();
    await this.storage.flush();
    await this.readPeers();
  }

  /** Writes the minute buckets that changed (in the next write-behind batch). */
  persist(): void {
    for (const [bucket, endpointId] of this.dirty) {
      const encode = (h: Hdr.Histogram | null) => (h && h.totalCount > 0 ? hdr().encodeIntoCompressedBase64(h) : null);
      this.storage.saveMinute({
        instance: this.instance,
        endpointId,
        minute: bucket.minute,
        attempts: bucket.attempts,
        faults: bucket.faults,
        latency: encode(bucket.latency),
        throughput: encode(bucket.throughput),
      });
    }
    this.dirty.clear();
  }

  /** Stops the timer and stores what changed; resolves once it is stored. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.persist();
    await this.storage.flush();
  }

  /**
   * Adds one attempt to the windows. Failures are also logged one by one, with their message;
   * successes only count in the minute figures, which are written every few seconds.
   */
  record(attempt: AttemptRecord): void {
    if (attempt.outcome !== 'ok') this.storage.logFailure({ ...attempt, providerFault: PROVIDER_FAULTS.has(attempt.outcome) });
    this.observe(attempt);
  }

  private bucketFor(endpointId: string, minute: number): Bucket {
    let list = this.buckets.get(endpointId);
    if (!list) {
      list = [];
      this.buckets.set(endpointId, list);
    }
    const last = list[list.length - 1];
    if (last && last.minute === minute) return last;
    const found = list.find((b) => b.minute === minute);
    if (found) return found;
    const bucket: Bucket = { minute, attempts: 0, faults: 0, latency: null, throughput: null };
    list.push(bucket);
    list.sort((a, b) => a.minute - b.minute);
    this.prune(list, Math.floor(this.clock.now() / MINUTE));
    return bucket;
  }

  private prune(list: Bucket[], nowMinute: number): void {
    while (list.length > 0 && list[0]!.minute <= nowMinute - DAY_MINUTES) list.shift();
    for (const bucket of list) if (bucket.minute <= nowMinute - HISTOGRAM_MINUTES) dropHistograms(bucket);
  }

  private observe(attempt: AttemptRecord): void {
    // Neither was a real attempt at the provider: they say nothing about its health.
    if (attempt.outcome === 'cancelled' || attempt.outcome === 'unconfigured') return;
    // A failure changes routing at once (the last-30-seconds outage rule): drop the cached figures.
    if (attempt.outcome !== 'ok') this.cache.delete(attempt.endpointId);
    const minute = Math.floor(attempt.startedAt / MINUTE);
    const bucket = this.bucketFor(attempt.endpointId, minute);
    this.dirty.set(bucket, attempt.endpointId);
    bucket.attempts += 1;
    if (PROVIDER_FAULTS.has(attempt.outcome)) {
      bucket.faults += 1;
      // The latest end, whatever order attempts are told in (those that ran long end last).
      const end = attempt.startedAt + attempt.totalMs;
      if (end > (this.lastFault.get(attempt.endpointId) ?? 0)) this.lastFault.set(attempt.endpointId, end);
    }
    if (attempt.outcome !== 'ok' || attempt.firstTokenMs === null) return;
    if (minute <= Math.floor(this.clock.now() / MINUTE) - HISTOGRAM_MINUTES) return;
    bucket.latency ??= newHistogram(LATENCY_MAX);
    bucket.latency.recordValue(Math.min(LATENCY_MAX, Math.max(1, Math.round(attempt.firstTokenMs))));
    const generating = attempt.totalMs - attempt.firstTokenMs;
    // Throughput needs tokens after the first one and time spent producing them.
    if (attempt.outputTokens !== null && attempt.outputTokens > 1 && generating > 0) {
      const perSecond = ((attempt.outputTokens - 1) / generating) * 1000;
      bucket.throughput ??= newHistogram(THROUGHPUT_MAX);
      bucket.throughput.recordValue(Math.min(THROUGHPUT_MAX, Math.max(1, Math.round(perSecond * THROUGHPUT_SCALE))));
    }
  }

  /**
   * Routing reads figures on every request, so they are recomputed at most once a second per
   * endpoint (failures drop the cache at once); listings ask for `fresh` figures.
   */
  figures(endpointId: string, options: { fresh?: boolean } = {}): EndpointFigures {
    const now = this.clock.now();
    const cached = this.cache.get(endpointId);
    if (!options.fresh && cached && now - cached.at < FIGURES_TTL_MS && now >= cached.at) return cached.figures;
    const figures = this.compute(endpointId);
    this.cache.set(endpointId, { at: now, figures });
    return figures;
  }

  /**
   * Attempts and provider faults per `stepMinutes` over the last `minutes`, oldest first (for charts),
   * with the median time to first token (s) and throughput (tokens/s) where the slot's successful
   * attempts were measured (the last 30 minutes keep histograms).
   */
  history(
    endpointId: string,
    minutes: number,
    stepMinutes: number,
  ): { at: number; attempts: number; faults: number; latencyP50: number | null; throughputP50: number | null }[] {
    const nowMinute = Math.floor(this.clock.now() / MINUTE);
    const first = nowMinute - minutes + 1;
    const slots = Array.from({ length: Math.ceil(minutes / stepMinutes) }, (_, i) => ({
      at: (first + i * stepMinutes) * MINUTE,
      attempts: 0,
      faults: 0,
      buckets: [] as Bucket[],
    }));
    for (const b of this.all(endpointId)) {
      if (b.minute < first) continue;
      const slot = slots[Math.floor((b.minute - first) / stepMinutes)];
      if (!slot) continue;
      slot.attempts += b.attempts;
      slot.faults += b.faults;
      slot.buckets.push(b);
    }
    return slots.map(({ buckets, ...slot }) => ({
      ...slot,
      latencyP50: latencyPercentiles(buckets)?.p50 ?? null,
      throughputP50: throughputPercentiles(buckets)?.p50 ?? null,
    }));
  }

  /** When the oldest figure kept for the endpoint (at most a day old) was measured; null without any. */
  measuredSince(endpointId: string): number | null {
    const nowMinute = Math.floor(this.clock.now() / MINUTE);
    const minutes = this.all(endpointId)
      .filter((b) => b.minute > nowMinute - DAY_MINUTES && b.attempts > 0)
      .map((b) => b.minute);
    return minutes.length > 0 ? Math.min(...minutes) * MINUTE : null;
  }

  /** This instance's buckets for the endpoint, then the other instances'. */
  private all(endpointId: string): Bucket[] {
    const own = this.buckets.get(endpointId) ?? [];
    const peers = this.peers.get(endpointId);
    return peers && peers.size > 0 ? [...own, ...peers.values()] : own;
  }

  private compute(endpointId: string): EndpointFigures {
    const nowMinute = Math.floor(this.clock.now() / MINUTE);
    const list = this.all(endpointId);
    const window = (minutes: number) => list.filter((b) => b.minute > nowMinute - minutes);
    const uptime = (buckets: Bucket[]) => {
      const attempts = buckets.reduce((n, b) => n + b.attempts, 0);
      const faults = buckets.reduce((n, b) => n + b.faults, 0);
      return { attempts, value: attempts === 0 ? null : round((100 * (attempts - faults)) / attempts, 2) };
    };
    const recent = window(HISTOGRAM_MINUTES);
    const day = uptime(window(DAY_MINUTES));
    const lastFault = this.lastFault.get(endpointId);
    return {
      latency: latencyPercentiles(recent),
      // Throughput percentiles read "at least this fast for that share of requests", so p99 is the slow tail.
      throughput: throughputPercentiles(recent),
      uptime5m: uptime(window(5)).value,
      uptime30m: uptime(recent).value,
      uptime1d: day.value,
      attempts5m: uptime(window(5)).attempts,
      attempts30m: uptime(recent).attempts,
      attempts1d: day.attempts,
      successRate1d: day.value === null ? null : day.value / 100,
      recentFaultAt: lastFault !== undefined && this.clock.now() - lastFault < MINUTE ? lastFault : null,
    };
  }
}

function bucketOf(row: MinuteFigures, nowMinute: number): Bucket {
  const recent = row.minute > nowMinute - HISTOGRAM_MINUTES;
  const decode = (text: string | null) => (recent && text ? hdr().decodeFromCompressedBase64(text, 'packed', false) : null);
  return { minute: row.minute, attempts: row.attempts, faults: row.faults, latency: decode(row.latency), throughput: decode(row.throughput) };
}

function dropHistograms(bucket: Bucket): void {
  bucket.latency?.destroy();
  bucket.throughput?.destroy();
  bucket.latency = null;
  bucket.throughput = null;
}

const destroy = (bucket: Bucket | undefined): void => {
  if (bucket) dropHistograms(bucket);
};

/** Merges the window's histograms and reads four points of the distribution; null when empty. */
function mergedPercentiles(parts: (Hdr.Histogram | null)[], max: number, read: (h: Hdr.Histogram) => PercentileStats): PercentileStats | null {
  const present = parts.filter((h): h is Hdr.Histogram => h !== null && h.totalCount > 0);
  if (present.length === 0) return null;
  const merged = newHistogram(max);
  for (const part of present) merged.add(part);
  const stats = read(merged);
  merged.destroy();
  return stats;
}

/** Seconds to first token; p90 is the value 90% of requests stay under (the slow tail). */
const latencyPercentiles = (recent: Bucket[]): PercentileStats | null =>
  mergedPercentiles(
    recent.map((b) => b.latency),
    LATENCY_MAX,
    (h) => {
      const at = (p: number) => round(h.getValueAtPercentile(p) / 1000, 3);
      return { p50: at(50), p75: at(75), p90: at(90), p99: at(99) };
    },
  );

/**
 * Tokens per second. Higher is better, so p90 is the rate that 90% of requests reach (the 10th
 * percentile of the raw distribution): like latency, p90 and p99 describe the slow tail, and a
 * `preferred_min_throughput` cutoff at p90 means "90% of requests at least this fast".
 */
const throughputPercentiles = (recent: Bucket[]): PercentileStats | null =>
  mergedPercentiles(
    recent.map((b) => b.throughput),
    THROUGHPUT_MAX,
    (h) => {
      const at = (p: number) => round(h.getValueAtPercentile(p) / THROUGHPUT_SCALE, 3);
      return { p50: at(50), p75: at(25), p90: at(10), p99: at(1) };
    },
  );
