export declare const SYSTEM_CHROMIUM: string;
export declare function bundledVersion(): string;

export interface FoundChromium {
  path: string;
  source: 'CHROMIUM_PATH' | 'system' | 'bundled';
  why: string;
  /** A fontconfig file (FONTCONFIG_FILE) that gives either browser the same fonts. */
  fontsConfig: string;
}

export declare function findChromium(env?: NodeJS.ProcessEnv): Promise<FoundChromium>;
export declare function versionOf(path: string): { version: string; error?: undefined } | { error: string; version?: undefined };
