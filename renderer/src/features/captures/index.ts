/**
 * Captures: the rules that turn live Decisions requests into dataset items, with the answers as
 * predictions. Its panel sits on the Settings screen. What other features and the shell may use of
 * it is exported here. It imports settings (the API keys, the audit log's key), question sets (their
 * names) and evaluations (the datasets list, which a new rule may add to).
 */
export { CapturesPanel } from './CapturesPanel';
export { capturesQuery } from './api';
