/** The screens in the order of the work: compose, run, evaluate, review boxes, then the providers and settings. */
export const SCREENS = [
  { id: 'question-sets', label: 'Question sets', key: '1' },
  { id: 'runs', label: 'Runs', key: '2' },
  { id: 'evaluations', label: 'Evaluations', key: '3' },
  { id: 'boxes', label: 'Boxes', key: '4' },
  { id: 'endpoints', label: 'Endpoints', key: '5' },
  { id: 'zdr', label: 'ZDR', key: '6' },
  { id: 'settings', label: 'Settings', key: '7' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

export function screenFromHash(hash: string): ScreenId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return SCREENS.find((s) => s.id === id)?.id ?? 'question-sets';
}
