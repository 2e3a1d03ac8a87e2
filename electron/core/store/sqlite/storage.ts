import { SqliteAuditStore, SqliteSessionStore } from './audit-store';
import type { Storage } from '../ports';
import { SqliteBoxStore } from './box-store';
import { Store } from './database';
import { SqliteDatasetStore } from './dataset-store';
import { sqliteEvaluationStorage } from './eval-store';
import { SqliteKeyStore } from './key-store';
import { SqliteLegacySpend } from './legacy-spend';
import { SqliteMetricsStore } from './metrics-store';
import { SqliteProviderKeyDates } from './provider-key-dates';
import { SqliteQuestionSetStore } from './question-set-store';
import { SqliteCascadePresetStore } from './cascade-preset-store';
import { SqliteCaptureStore } from './capture-store';
import { SqliteReviewStore } from './review-store';
import { SqliteHumanReviewStore } from './human-review-store';
import { SqliteRefusalStore } from './refusal-store';
import { SqliteRunStore } from './run-store';
import { SqliteSettingsStore } from './settings-store';

/** Every domain's storage in one SQLite file (the desktop's and a single server's). */
export interface SqliteStorage extends Storage {
  readonly kind: 'sqlite';
  /** The file itself, for the tests and tools that look at it directly. */
  readonly store: Store;
}

/** Opens (and migrates in place) the SQLite file at `path`; `readOnly` reads it as it is (Store.open). */
export function openSqliteStorage(path: string, options: { readOnly?: boolean } = {}): SqliteStorage {
  const store = Store.open(path, options);
  return {
    kind: 'sqlite',
    store,
    keys: new SqliteKeyStore(store),
    settings: new SqliteSettingsStore(store),
    refusals: new SqliteRefusalStore(store),
    providerKeyDates: new SqliteProviderKeyDates(store),
    metrics: new SqliteMetricsStore(store),
    questionSets: new SqliteQuestionSetStore(store),
    cascadePresets: new SqliteCascadePresetStore(store),
    captures: new SqliteCaptureStore(store),
    reviews: new SqliteReviewStore(store),
    humanReviews: new SqliteHumanReviewStore(store),
    runs: new SqliteRunStore(store),
    legacySpend: new SqliteLegacySpend(store),
    datasets: new SqliteDatasetStore(store),
    ...sqliteEvaluationStorage(store),
    boxes: new SqliteBoxStore(store),
    audit: new SqliteAuditStore(store),
    sessions: new SqliteSessionStore(store),
    // One process serves a data directory: nobody to tell.
    health: null,
    presence: null,
    where: `SQLite file ${path}`,
    tables: async () => store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => r.name),
    ping: async () => void store.get('SELECT 1'),
    close: async () => store.close(),
  };
}
