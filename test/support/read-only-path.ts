/**
 * Makes a folder or a file really read-only for this process. For an ordinary user, chmod does it; root ignores
 * permission bits, so as root the path is bind-mounted onto itself read-only (what a disk mounted read-only looks
 * like: EROFS). `how` is null, with the reason, where neither works (root without mount rights), so tests can skip
 * saying why.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export interface ReadOnlyPath {
  /** Turns the path read-only; undo() gives it back its writes. */
  apply(): void;
  undo(): void;
}

const isRoot = process.getuid?.() === 0;

/** How a path can be made read-only here, or why it cannot. */
export const readOnlyMethod: { how: 'chmod' | 'bind-mount' | null; why: string } = (() => {
  if (process.platform === 'win32') return { how: null, why: 'Windows has no chmod or bind mounts' };
  if (!isRoot) return { how: 'chmod', why: 'chmod' };
  const probe = fs.mkdtempSync('/tmp/mnemo-ro-probe-');
  try {
    execFileSync('mount', ['--bind', probe, probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return { how: 'bind-mount', why: 'a read-only bind mount (running as root)' };
  } catch {
    return { how: null, why: 'running as root without mount rights, where chmod does not stop writes' };
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
})();

export function readOnlyPath(target: string): ReadOnlyPath {
  let applied = false;
  let mode = 0;
  return {
    apply() {
      if (readOnlyMethod.how === 'chmod') {
        mode = fs.statSync(target).mode & 0o7777;
        fs.chmodSync(target, fs.statSync(target).isDirectory() ? 0o555 : 0o444);
      } else if (readOnlyMethod.how === 'bind-mount') {
        execFileSync('mount', ['--bind', target, target], { stdio: 'ignore' });
        execFileSync('mount', ['-o', 'remount,bind,ro', target, target], { stdio: 'ignore' });
      } else {
        throw new Error(`cannot make ${target} read-only: ${readOnlyMethod.why}`);
      }
      applied = true;
    },
    undo() {
      if (!applied) return;
      applied = false;
      if (readOnlyMethod.how === 'chmod') fs.chmodSync(target, mode);
      else {
        try {
          execFileSync('umount', [target], { stdio: 'ignore' });
        } catch {
          // Still open in this process (a test that failed midway): detach now, released when closed.
          execFileSync('umount', ['-l', target], { stdio: 'ignore' });
        }
      }
    },
  };
}
