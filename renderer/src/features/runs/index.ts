/**
 * Runs: one question set's request sent once, its answers, routing, usage and cost, and their
 * history. What other features may use of it is exported here; they import nothing else from this
 * folder. It imports no other feature but settings.
 */
export { runQuery } from './api';
