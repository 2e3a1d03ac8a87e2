/** The renderer is served from app://verdict/ (a privileged, standard custom scheme). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'verdict';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/**
 * Whether a URL belongs to the app's own renderer. Compared by protocol and host: WHATWG URL
 * gives custom schemes an opaque origin ("null"), so comparing `origin` would never match.
 */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}
