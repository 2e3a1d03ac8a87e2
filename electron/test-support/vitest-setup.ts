/**
 * Runs before each unit-test file. The files of one worker share their modules (`isolate: false`
 * in vite.config.ts: importing the core once per worker instead of once per file halves the run),
 * so a global one file changed is seen by the next. One is changed on purpose: a server started with
 * `overrideGlobalObjects` (the headless server's default) puts @hono/node-server's lighter `Request`
 * and `Response` on `globalThis`. A client module imported after that (the OpenRouter SDK checks
 * `instanceof Response`) would take the replaced class while `fetch` still answers with Node's own,
 * so each file starts with Node's own classes again.
 */
const key = Symbol.for('verdict.test.nativeFetchClasses');
type Holder = typeof globalThis & { [key]?: { Request: typeof Request; Response: typeof Response } };
const holder = globalThis as Holder;
const native = (holder[key] ??= { Request: globalThis.Request, Response: globalThis.Response });
for (const name of ['Request', 'Response'] as const) {
  if (globalThis[name] !== native[name]) Object.defineProperty(globalThis, name, { value: native[name], writable: true, configurable: true });
}
