/**
 * How deep JSON may nest. Requests, operation inputs and files deeper than this are refused before
 * anything recursive (schemas, prompt building, serialisation) touches them, so a few kilobytes of
 * brackets cannot overflow the stack. Real content rarely passes 20 levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The character offset at which JSON text first nests deeper than `max`, or -1. One pass over the
 * text; strings are skipped whole, so brackets inside them do not count.
 */
export function jsonTextTooDeepAt(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Jump to the closing quote: the next quote not escaped (preceded by an even number of
      // backslashes). indexOf runs natively, so a long string (an image's base64) costs little.
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote === -1) return -1;
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === 92 /* \ */) backslashes += 1;
        i = quote;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth > max) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth -= 1;
    }
  }
  return -1;
}

/** The path (e.g. `questions.q.instructions[0]`) at which a value nests deeper than `max`, or null. Iterative. */
export function valueTooDeepAt(value: unknown, max = MAX_JSON_DEPTH): string | null {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 0, path: '' }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth + 1 > max) return item.path || '(top level)';
    if (Array.isArray(item.value)) {
      item.value.forEach((v, i) => stack.push({ value: v, depth: item.depth + 1, path: `${item.path}[${i}]` }));
    } else {
      for (const [k, v] of Object.entries(item.value)) stack.push({ value: v, depth: item.depth + 1, path: item.path ? `${item.path}.${k}` : k });
    }
  }
  return null;
}

/**
 * The path of the first `__proto__` key anywhere in a parsed JSON value (JSON.parse makes it an own
 * key, which no object built from it can keep), or null. Iterative.
 */
export function reservedKeyAt(value: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (Array.isArray(item.value)) {
      for (let i = item.value.length - 1; i >= 0; i -= 1) stack.push({ value: item.value[i], path: [...item.path, i] });
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(item.value, '__proto__')) return [...item.path, '__proto__'];
    const entries = Object.entries(item.value);
    for (let i = entries.length - 1; i >= 0; i -= 1) stack.push({ value: entries[i]![1], path: [...item.path, entries[i]![0]] });
  }
  return null;
}
