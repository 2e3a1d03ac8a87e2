/** The screens in the order of the work: compose, run, evaluate, review boxes, review items one at a time, watch live answers, then the providers and settings. */
/** Each screen: its label, a word short enough for the collapsed sidebar, and its Alt shortcut's digit. */
export const SCREENS = [
  { id: 'question-sets', label: 'Question sets', short: 'Sets', key: '1' },
  { id: 'runs', label: 'Runs', short: 'Runs', key: '2' },
  { id: 'evaluations', label: 'Evaluations', short: 'Evals', key: '3' },
  { id: 'boxes', label: 'Boxes', short: 'Boxes', key: '4' },
  { id: 'review', label: 'Review', short: 'Review', key: '5' },
  { id: 'monitor', label: 'Monitor', short: 'Monitor', key: '6' },
  { id: 'endpoints', label: 'Endpoints', short: 'Endpts', key: '7' },
  { id: 'zdr', label: 'ZDR', short: 'ZDR', key: '8' },
  { id: 'settings', label: 'Settings', short: 'Settings', key: '9' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return SCREENS.find((s) => s.id === id)?.id ?? 'question-sets';
}
