/* global Response, Headers */
// Loaded into Portkey's gateway (node --import) when the gateway bench runs it beside Verdict.
// Portkey 1.15.2 adds its x-portkey-* headers to the upstream's fetch Response, whose headers
// Node's fetch makes immutable, so every streamed chat completion fails with "TypeError:
// immutable" on Node (Portkey-AI/gateway#1389, #1550). Each upstream response is handed over
// as a Response of its own with the same status, headers and body stream, which it may change.
const upstreamFetch = globalThis.fetch;
globalThis.fetch = async (...args) => {
  const response = await upstreamFetch(...args);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
};
