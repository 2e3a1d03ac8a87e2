/**
 * Thumbnails kept across sessions in IndexedDB, by source and item (a dataset item's image never
 * changes in place, so its key names it for good). The cache is a help, never a need: when
 * IndexedDB is missing or fails, thumbnails are simply made again.
 */
const DB = 'verdict-thumbnails';
const STORE = 'thumbnails';

let opened: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
  return opened;
}

function done<T>(request: IDBRequest<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(undefined);
  });
}

export async function cachedThumbnail(key: string): Promise<Blob | undefined> {
  const db = await open();
  if (!db) return undefined;
  try {
    const value = await done<unknown>(db.transaction(STORE).objectStore(STORE).get(key));
    return value instanceof Blob ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function keepThumbnail(key: string, blob: Blob): Promise<void> {
  const db = await open();
  if (!db) return;
  try {
    await done(db.transaction(STORE, 'readwrite').objectStore(STORE).put(blob, key));
  } catch {
    // Full or closed: the thumbnail is made again next time.
  }
}
