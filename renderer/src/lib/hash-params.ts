/** The query of a screen's address ("#/evaluations?new&dataset=ds-1"): how one screen opens another on a given thing. */
export function hashParams(hash: string = window.location.hash): URLSearchParams {
  const at = hash.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : hash.slice(at + 1));
}

/** A screen's address with its query, the values encoded. */
export function screenLink(screen: string, params: Record<string, string | true>): string {
  const query = Object.entries(params)
    .map(([k, v]) => (v === true ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`))
    .join('&');
  return `#/${screen}${query ? `?${query}` : ''}`;
}
