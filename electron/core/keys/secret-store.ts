import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../store/atomic-file';

/**
 * Where secrets (provider keys) live. Write-only from the renderer's point of view: the
 * inspector operations can set, clear and ask whether a secret exists, never read it.
 */
export interface SecretStore {
  /** Whether secrets can be stored here, and how they are protected, in words for the UI. */
  status(): { available: boolean; description: string };
  has(name: string): Promise<boolean>;
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

/** Turns a secret into what is written to disk and back (OS encryption in Electron). */
export interface SecretCodec {
  status(): { available: boolean; description: string };
  encode(plain: string): string;
  decode(stored: string): string;
}

/** Headless mode: the file itself is the protection (mode 0600, owner only). */
export const ownerOnlyFileCodec: SecretCodec = {
  status: () => ({ available: true, description: 'file readable only by this user (mode 0600)' }),
  encode: (plain) => plain,
  decode: (stored) => stored,
};

const SecretFileSchema = z.object({ version: z.literal(1), secrets: z.record(z.string(), z.string()) });

export class SecretStoreError extends Error {}

/**
 * Secrets in one JSON file, replaced atomically (temp file, fsync, rename) so a crash never
 * leaves a half-written file. A file that fails to parse is never overwritten.
 */
export class FileSecretStore implements SecretStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly codec: SecretCodec,
  ) {}

  status(): { available: boolean; description: string } {
    return this.codec.status();
  }

  async has(name: string): Promise<boolean> {
    const secrets = await this.read();
    return Object.hasOwn(secrets, name);
  }

  async get(name: string): Promise<string | undefined> {
    const secrets = await this.read();
    const stored = secrets[name];
    return stored === undefined ? undefined : this.codec.decode(stored);
  }

  set(name: string, value: string): Promise<void> {
    const { available, description } = this.codec.status();
    if (!available) {
      return Promise.reject(new SecretStoreError(`Secrets cannot be stored: ${description}. Nothing was saved.`));
    }
    return this.serialize(async () => {
      const secrets = await this.read();
      secrets[name] = this.codec.encode(value);
      await this.write(secrets);
    });
  }

  delete(name: string): Promise<void> {
    return this.serialize(async () => {
      const secrets = await this.read();
      if (!Object.hasOwn(secrets, name)) return;
      delete secrets[name];
      await this.write(secrets);
    });
  }

  private serialize(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async read(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new SecretStoreError(`The secrets file ${this.path} is not valid JSON; it was left untouched. Move it aside to start afresh.`);
    }
    const result = SecretFileSchema.safeParse(parsed);
    if (!result.success) {
      throw new SecretStoreError(`The secrets file ${this.path} has an unexpected shape; it was left untouched.`);
    }
    return { ...result.data.secrets };
  }

  private write(secrets: Record<string, string>): Promise<void> {
    return writeFileAtomic(this.path, JSON.stringify({ version: 1, secrets }), 0o600);
  }
}
