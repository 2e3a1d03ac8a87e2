/**
 * Reads until `done` says the value is what the test waits for (every 20 ms, 10 s at most), for
 * work that finishes in the background such as evaluation runs. Times out with an error.
 */
export async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, { tries = 500, everyMs = 20 } = {}): Promise<T> {
  for (let i = 0; i < tries; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error('timed out waiting');
}
