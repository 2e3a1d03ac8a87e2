/** A count and its noun, singular at one: "1 endpoint", "2 endpoints". */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? noun : plural}`;
