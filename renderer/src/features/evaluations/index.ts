/**
 * Evaluations: datasets, evaluation runs over them (a question set on several models), their
 * reports, comparisons, cascades and calibration, and the saved cascade presets. What other
 * features may use of it is exported here; they import nothing else from this folder. It imports
 * question sets, endpoints and samples.
 */
export { cascadePresetsQuery, datasetsQuery, evalKeys, evalRunsQuery, reportQuery, sameRunPlaceholder } from './api';
export { costLines } from './cost-text';
export { useAnnounceRunEnd } from './run-end';
