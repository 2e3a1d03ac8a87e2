/**
 * Settings: the app's facts and settings, provider and API keys, the catalog, the audit log,
 * shortcuts and backups; and the notice every screen with data shows while simulated providers
 * stand in. What other features and the shell may use of it is exported here. It imports one
 * other feature: captures, whose panel its screen shows (captures reads the API keys from here).
 */
export { apiKeysQuery, appInfoQuery, settingsKeys, settingsQuery, transportKind } from './api';
export { SandboxNotice } from './SandboxNotice';
