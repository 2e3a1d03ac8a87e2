import { afterAll, beforeAll } from 'vitest';
import { systemClock } from '../core/clock';
import { UpstreamHttp } from '../core/providers/http';
import { ScriptedUpstream } from './scripted-upstream';

/**
 * A scripted upstream and an UpstreamHttp for the vitest suite it is called in: started before its
 * tests, both closed after. `suite.upstream` is valid inside tests. (Apart from scripted-upstream.ts,
 * which Playwright specs import too and which must not load vitest.)
 */
export function scriptedUpstreamSuite(): { readonly upstream: ScriptedUpstream; readonly http: UpstreamHttp } {
  let upstream: ScriptedUpstream | null = null;
  const http = new UpstreamHttp(systemClock);
  beforeAll(async () => {
    upstream = await new ScriptedUpstream().start();
  });
  afterAll(async () => {
    await http.close();
    await upstream?.close();
  });
  return {
    get upstream() {
      if (!upstream) throw new Error('the scripted upstream is used outside its suite');
      return upstream;
    },
    http,
  };
}
