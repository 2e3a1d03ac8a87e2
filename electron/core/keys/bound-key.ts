/**
 * A secret bound to the origin it was entered for. A key typed in for https://api.openai.com is
 * only ever sent to https://api.openai.com: if a catalog file, an import or a setting later points
 * the provider elsewhere, the key stays home and the user is asked for a key for the new address.
 */
export interface BoundKey {
  key: string;
  /** `scheme://host[:port]` of the address the key was entered for; null for keys stored before binding existed. */
  origin: string | null;
}

/** The origin of a base URL, or null when it is not a URL. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** What is written to the secret store: the key and its origin, together, so neither moves alone. */
export function encodeBoundKey(key: string, origin: string): string {
  return JSON.stringify({ v: 2, key, origin });
}

export function decodeBoundKey(stored: string): BoundKey {
  if (stored.startsWith('{')) {
    try {
      const parsed = JSON.parse(stored) as { v?: unknown; key?: unknown; origin?: unknown };
      if (parsed.v === 2 && typeof parsed.key === 'string' && typeof parsed.origin === 'string') return { key: parsed.key, origin: parsed.origin };
    } catch {
      // Not ours: a plain key that happens to start with a brace.
    }
  }
  return { key: stored, origin: null };
}

/** Why a stored key is not sent to `baseUrl`, in words for the user; null when it may be. */
export function keyRefusal(what: string, bound: string, baseUrl: string): string | null {
  const target = originOf(baseUrl);
  if (target === bound) return null;
  return `the key for ${what} was entered for ${bound}, but ${what} now points at ${target ?? baseUrl}; the key is not sent there. Enter a key for ${target ?? baseUrl} in Settings to use it`;
}
