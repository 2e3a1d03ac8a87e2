import { PgAuditStore, PgSessionStore } from './audit-store';
import type { LegacySpendStorage, Storage } from '../ports';
import { redactUrl } from '../redact';
import { PgBoxStore } from './box-store';
import { PgDatabase, type PgOptions } from './database';
import { PgDatasetStore } from './dataset-store';
import { PgHealthBroadcast } from './health-broadcast';
import { PgPresence } from './presence';
import { pgEvaluationStorage } from './eval-store';
import { PgKeyStore } from './key-store';
import { PgMetricsStore } from './metrics-store';
import { PgProviderKeyDates } from './provider-key-dates';
import { PgQuestionSetStore } from './question-set-store';
import { PgCascadePresetStore } from './cascade-preset-store';
import { PgCaptureStore } from './capture-store';
import { PgReviewStore } from './review-store';
import { PgHumanReviewStore } from './human-review-store';
import { PgRefusalStore } from './refusal-store';
import { PgRunStore } from './run-store';
import { PgSettingsStore } from './settings-store';

/** Spend only versions before spend moved to the keys left in a request log, and those kept their data in SQLite. */
const NO_LEGACY_SPEND: LegacySpendStorage = { foldOnce: async () => undefined };

/** Every domain's storage on a PostgreSQL server: a team's instances share it. */
export interface PostgresStorage extends Storage {
  readonly kind: 'postgres';
  readonly db: PgDatabase;
}

/** Connects (at most 10 connections by default), applies migrations under the advisory lock, and opens every store. */
export async function openPostgresStorage(url: string, options: PgOptions = {}): Promise<PostgresStorage> {
  const db = await PgDatabase.open(url, options);
  try {
    const [keys, settings, refusals, datasets, evals, captures, reviews] = await Promise.all([
      PgKeyStore.open(db),
      PgSettingsStore.open(db),
      PgRefusalStore.open(db),
      PgDatasetStore.open(db),
      pgEvaluationStorage(db),
      PgCaptureStore.open(db),
      PgReviewStore.open(db),
    ]);
    const metrics = new PgMetricsStore(db);
    return {
      kind: 'postgres',
      db,
      keys,
      settings,
      refusals,
      providerKeyDates: new PgProviderKeyDates(db),
      metrics,
      questionSets: new PgQuestionSetStore(db),
      cascadePresets: new PgCascadePresetStore(db),
      captures,
      reviews,
      humanReviews: new PgHumanReviewStore(db),
      runs: new PgRunStore(db),
      legacySpend: NO_LEGACY_SPEND,
      datasets,
      ...evals,
      boxes: new PgBoxStore(db),
      audit: new PgAuditStore(db),
      sessions: new PgSessionStore(db),
      health: new PgHealthBroadcast(db),
      presence: new PgPresence(db),
      where: `PostgreSQL at ${redactUrl(url)}`,
      tables: async () =>
        (
          await db.query<{ name: string }>(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
          )
        ).map((r) => r.name),
      ping: () => db.ping(),
      close: async () => {
        await Promise.all([keys.flush(), metrics.flush()]);
        await db.close();
      },
    };
  } catch (error) {
    await db.close();
    throw error;
  }
}
