import { describe, expect, it } from 'vitest';
import { chooseChromium, ChromiumNotFoundError, installedChromiumPaths, type LookupHost } from '../support/chromium-lookup';

const host = (over: Partial<LookupHost> & { files?: string[] } = {}): LookupHost => ({
  env: {},
  platform: 'linux',
  arch: 'x64',
  exists: (file) => (over.files ?? []).includes(file),
  ...over,
});

function notFound(of: LookupHost): ChromiumNotFoundError {
  try {
    chooseChromium(of);
  } catch (error) {
    if (error instanceof ChromiumNotFoundError) return error;
    throw error;
  }
  throw new Error('a browser was found');
}

describe('which Chromium the browser tests drive', () => {
  it('MNEMO_CHROMIUM first, even when a browser is installed', () => {
    const of = host({ env: { MNEMO_CHROMIUM: '/opt/my/chrome' }, files: ['/opt/my/chrome', '/usr/bin/chromium'] });
    expect(chooseChromium(of)).toEqual({ source: 'MNEMO_CHROMIUM', executablePath: '/opt/my/chrome' });
  });

  it('a MNEMO_CHROMIUM that names nothing is an error naming it, not another browser', () => {
    const error = notFound(host({ env: { MNEMO_CHROMIUM: '/nope' }, files: ['/usr/bin/chromium'] }));
    expect(error.tried).toEqual(['MNEMO_CHROMIUM=/nope: no such file']);
  });

  it('then an installed Chromium, Chrome or Edge, in the platform’s usual places', () => {
    expect(chooseChromium(host({ files: ['/usr/bin/google-chrome', '/usr/bin/microsoft-edge'] }))).toEqual({ source: 'installed', executablePath: '/usr/bin/google-chrome' });
    const mac = host({ platform: 'darwin', arch: 'arm64', files: ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'] });
    expect(chooseChromium(mac)).toEqual({ source: 'installed', executablePath: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge' });
    const windows = host({ platform: 'win32', env: { PROGRAMFILES: 'C:\\Program Files' }, files: ['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'] });
    expect(chooseChromium(windows)).toEqual({ source: 'installed', executablePath: 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe' });
  });

  it('then, on Linux x64, the npm one; MNEMO_CHROMIUM=npm skips the installed ones', () => {
    expect(chooseChromium(host())).toEqual({ source: 'npm' });
    expect(chooseChromium(host({ env: { MNEMO_CHROMIUM: 'npm' }, files: ['/usr/bin/chromium'] }))).toEqual({ source: 'npm' });
  });

  it('none found: the message lists every place tried, in order', () => {
    const error = notFound(host({ platform: 'darwin', arch: 'arm64', env: { HOME: '/Users/ana' } }));
    const places = installedChromiumPaths('darwin', { HOME: '/Users/ana' });
    expect(places).toContain('/Users/ana/Applications/Google Chrome.app/Contents/MacOS/Google Chrome');
    expect(error.tried).toEqual(['MNEMO_CHROMIUM: not set', ...places.map((place) => `${place}: not installed`), '@sparticuz/chromium: runs on Linux x64 only (this is darwin arm64)']);
    for (const step of error.tried) expect(error.message).toContain(step);
    expect(error.message).toContain('set MNEMO_CHROMIUM');
  });
});
