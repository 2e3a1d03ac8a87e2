/**
 * Question sets: named questions about some content, written, checked and tried here. What other
 * features may use of it is exported here; they import nothing else from this folder. It imports
 * endpoints, evaluations (the cascade presets and the datasets list), runs, samples and settings.
 */
export { setQuery, setsKeys, setsQuery } from './api';
