/**
 * The best `limit` items by a numeric key, in order (ties keep input order), in O(n) on
 * average: a quickselect finds the cut-off and only the head is sorted. `unranked` counts the rest.
 */
export function rankHead<T>(items: readonly T[], key: (item: T) => number, limit: number): { ranked: T[]; unranked: number } {
  const n = items.length;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i += 1) keys[i] = key(items[i]!);
  const byKeyThenIndex = (a: number, b: number) => keys[a]! - keys[b]! || a - b;
  if (n <= limit) {
    const order = Array.from({ length: n }, (_, i) => i).sort(byKeyThenIndex);
    return { ranked: order.map((i) => items[i]!), unranked: 0 };
  }
  const cut = kthSmallest(keys.slice(), limit - 1);
  const head: number[] = [];
  for (let i = 0; i < n; i += 1) if (keys[i]! < cut) head.push(i);
  // Ties at the cut-off fill the remaining places in input order.
  for (let i = 0; i < n && head.length < limit; i += 1) if (keys[i] === cut) head.push(i);
  head.sort(byKeyThenIndex);
  return { ranked: head.map((i) => items[i]!), unranked: n - head.length };
}

/** The k-th smallest value (0-based) of `values`, which it reorders (Hoare's selection). */
export function kthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i += 1;
      while (values[j]! > pivot) j -= 1;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i += 1;
        j -= 1;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}
