import { allowedHostnames, isLoopbackAddress } from './hosts';

/** What `npm run serve` prints once it listens: where, how to open it, and the first key once. */
export function serverBanner(o: {
  url: string;
  uiUrl: string;
  dataDir: string;
  /** Where the data is kept (the storage's own words, without a password); said when not the data directory's file. */
  data?: string;
  host: string;
  allowedHosts: readonly string[];
  initialKey: string | undefined;
}): string[] {
  const lines = [
    `Verdict is serving at ${o.url}`,
    `  Open the inspector: ${o.uiUrl}`,
    `  Public API:         ${o.url}/api/v1 and ${o.url}/api/alpha/decisions`,
    `  Data directory:     ${o.dataDir}`,
    ...(o.data && !o.data.startsWith('SQLite') ? [`  Data:               ${o.data}`] : []),
  ];
  // Any loopback address (127.0.0.0/8, ::1) is reachable from this machine only.
  if (!isLoopbackAddress(o.host)) {
    lines.push(`  Warning: listening on ${o.host}, reachable beyond this machine. Every API call still needs a key.`);
    lines.push(`  Requests are answered only for these host names: ${allowedHostnames(o.host, o.allowedHosts).join(', ')} (add more with --allowed-host).`);
  }
  if (o.initialKey) {
    lines.push(
      '',
      'First start: created a management API key. It is shown only this once and only its hash is stored:',
      `  ${o.initialKey}`,
      'Manage keys with: npm run serve -- keys create|list|revoke',
    );
  }
  return lines;
}
