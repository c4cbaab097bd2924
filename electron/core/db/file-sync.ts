/**
 * Making file writes and renames durable: a backup or a restore is complete only once its bytes and its name have
 * reached the disk (a crash after a rename that only sat in the page cache can bring the old name back).
 */
import fs from 'node:fs';

export function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename durable. Some platforms (Windows) cannot open a directory; there renames are durable already. */
export function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // EISDIR/EPERM on platforms without directory fsync.
  } finally {
    fs.closeSync(fd);
  }
}
