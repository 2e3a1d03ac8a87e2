// Which Chromium the browser tests drive, and the fonts they render with. A system Chromium wins
// (CHROMIUM_PATH, else /usr/bin/chromium); without one, the build that ships inside the npm package
// @sparticuz/chromium is unpacked once and used, so `npm ci && npm test` needs nothing else.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';
/** Where Debian's fonts-dejavu-core puts its fonts: a monospace face, and glyphs Open Sans lacks (arrows, ≤). */
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

const packageDir = () => join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..');
export const bundledVersion = () => JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')).version;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `unpack` with the temporary directory pointed at a new folder, then renames that folder to
 * `target` in one step: a folder that exists is always whole, whoever unpacked it (another checkout
 * on this machine, a run killed half-way). The package unpacks into `os.tmpdir()`, which reads TMPDIR.
 */
async function unpackOnce(target, unpack) {
  if (existsSync(target)) return;
  const stage = mkdtempSync(`${target}.unpacking-`);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = stage;
  try {
    await unpack();
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  try {
    renameSync(stage, target);
  } catch (error) {
    // Another process finished first: its copy is the same.
    rmSync(stage, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
}

/**
 * The package's Chromium, unpacked into a folder of its own version under the temporary directory
 * (not the package's default /tmp/chromium, which any project's copy of any version may hold, and
 * which the package trusts as soon as it exists, even half-written).
 */
async function bundledChromium(tmp) {
  const home = join(tmp, `verdict-chromium-${bundledVersion()}`);
  try {
    await unpackOnce(home, async () => {
      const { default: Chromium } = await import('@sparticuz/chromium');
      await Chromium.executablePath();
    });
  } catch (error) {
    throw new Error(`unpacking the Chromium inside @sparticuz/chromium into ${home} failed (it needs about 220 MB): ${error.message}`);
  }
  return join(home, 'chromium');
}

/**
 * A fontconfig file both browsers read: Open Sans (shipped in the package) for text, DejaVu Sans
 * Mono for code, and only the DejaVu faces besides, so a system Chromium's own fonts (Debian's
 * brings Liberation, which the renderer's monospace stack names) cannot make its screenshots differ.
 */
async function fontsConfig(tmp) {
  const home = join(tmp, `verdict-fonts-${bundledVersion()}`);
  await unpackOnce(home, async () => {
    const { inflate } = await import('@sparticuz/chromium');
    const fonts = await inflate(join(packageDir(), 'bin', 'fonts.tar.br'));
    const prefer = (generic, ...families) =>
      `  <alias binding="strong"><family>${generic}</family><prefer>${families.map((f) => `<family>${f}</family>`).join('')}</prefer></alias>`;
    const lines = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
      '<fontconfig>',
      `  <dir>${join(home, 'fonts')}</dir>`,
      `  <dir>${DEJAVU}</dir>`,
      `  <cachedir>${join(home, 'cache')}</cachedir>`,
      prefer('system-ui', 'Open Sans'),
      prefer('sans-serif', 'Open Sans'),
      prefer('serif', 'Open Sans'),
      prefer('monospace', 'DejaVu Sans Mono', 'Open Sans'),
      '</fontconfig>',
      '',
    ];
    // The archive holds fonts/Open_Sans/*.ttf (and a fonts.conf of its own, for AWS Lambda's paths).
    if (!existsSync(join(fonts, 'fonts', 'Open_Sans'))) throw new Error(`the package's fonts did not unpack into ${fonts}`);
    writeFileSync(join(dirname(fonts), 'verdict-fonts.conf'), lines.join('\n'));
  });
  return join(home, 'verdict-fonts.conf');
}

/**
 * `{ path, source, why, fontsConfig }`: the Chromium to launch, where it came from ('CHROMIUM_PATH',
 * 'system' or 'bundled') and why that one. VERDICT_SYSTEM_CHROMIUM moves (or, set to nothing that
 * exists, hides) the system path, so a test can run as on a machine without one.
 */
export async function findChromium(env = process.env) {
  const tmp = tmpdir();
  const found = await pick(env, tmp);
  return { ...found, fontsConfig: await fontsConfig(tmp) };
}

async function pick(env, tmp) {
  const system = env.VERDICT_SYSTEM_CHROMIUM ?? SYSTEM_CHROMIUM;
  const passed = [];
  if (env.CHROMIUM_PATH) {
    if (executable(env.CHROMIUM_PATH)) return { path: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH', why: 'CHROMIUM_PATH names it' };
    passed.push(`CHROMIUM_PATH (${env.CHROMIUM_PATH}) is not an executable file`);
  }
  if (system && executable(system)) return { path: system, source: 'system', why: [...passed, `a system Chromium is at ${system}`].join('; ') };
  passed.push(`there is no Chromium at ${system || '(the system path, hidden)'}`);
  // The package carries one build: Linux on x64 (its arm64 builds are downloads, which we never make).
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `${passed.join('; ')}, and the Chromium inside @sparticuz/chromium runs only on Linux x64 (this is ${process.platform} ${process.arch}): set CHROMIUM_PATH to a Chromium or Chrome`,
    );
  }
  return { path: await bundledChromium(tmp), source: 'bundled', why: passed.join('; ') };
}

/** The browser's own version line ("Chromium 153.0.8010.0"), or the reason it would not start. */
export function versionOf(path) {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  if (result.status === 0) return { version: result.stdout.trim() };
  return { error: (result.error?.message ?? result.stderr.trim()) || `exit ${result.status}` };
}
