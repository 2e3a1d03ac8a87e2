/** Colours for box questions, distinct on light and dark backgrounds; unlabelled boxes are grey. */
const COLOURS = ['#2f9e44', '#1c7ed6', '#ae3ec9', '#f08c00', '#0c8599', '#e03131', '#5c940d', '#d6336c'];

export const UNLABELLED = '#868e96';

export function colourOf(label: string | undefined, labels: readonly string[]): string {
  const i = label === undefined ? -1 : labels.indexOf(label);
  return i < 0 ? UNLABELLED : COLOURS[i % COLOURS.length]!;
}
