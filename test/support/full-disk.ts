/**
 * A real full disk for reliability tests: a 16 MB tmpfs (mounting needs root; CI runs as root) and a filler that takes
 * its last byte. Tests that use it skip, saying why in their name, where the tmpfs cannot be mounted.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  root: string;
  mounted: boolean;
  /** Unmounts (if mounted) and removes the folder. */
  remove(): void;
}

/** A fresh folder with a 16 MB tmpfs mounted on it, where the platform and permissions allow. */
export function mountSmallDisk(prefix: string): SmallDisk {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let mounted = false;
  if (process.platform === 'linux') {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', root], { stdio: 'ignore' });
      mounted = true;
    } catch {
      mounted = false;
    }
  }
  return {
    root,
    mounted,
    remove() {
      if (mounted) execFileSync('umount', [root], { stdio: 'ignore' });
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Appends to `file` until the filesystem refuses another byte. */
export function fillToTheLastByte(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const chunk of [64 * 1024, 4096, 512, 1]) {
      try {
        for (;;) fs.writeSync(fd, Buffer.alloc(chunk));
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOSPC') throw e;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}
