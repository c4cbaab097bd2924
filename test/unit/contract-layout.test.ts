/**
 * Operations live in the contract file named by their prefix (`thread.rename` in thread.contract.ts): the one place
 * to look for an operation is its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationNames } from '../../shared/contract';

const DIR = path.resolve(import.meta.dirname, '../../shared/contract');

describe('contract layout', () => {
  it('declares every operation in <prefix>.contract.ts', () => {
    const misplaced: string[] = [];
    for (const name of operationNames) {
      const prefix = name.split('.')[0]!;
      const file = path.join(DIR, `${prefix}.contract.ts`);
      const declared = fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(`'${name}': operation(`);
      if (!declared) misplaced.push(`${name} (expected in ${prefix}.contract.ts)`);
    }
    expect(misplaced).toEqual([]);
  });
});
