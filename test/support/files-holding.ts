import fs from 'node:fs';
import path from 'node:path';

/** Every file under `dir`, subfolders included. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * The files under `dir` (database, WAL, backups...) whose bytes hold the word in UTF-8, as written or lowercased (the
 * search index keeps tokens lowercased), relative to `dir`: where a deleted word may still be on disk.
 */
export function filesHolding(dir: string, word: string): string[] {
  const forms = [Buffer.from(word), Buffer.from(word.toLowerCase())];
  return filesUnder(dir)
    .filter((file) => {
      const bytes = fs.readFileSync(file);
      return forms.some((form) => bytes.includes(form));
    })
    .map((file) => path.relative(dir, file));
}
