/**
 * The composition root only wires (issue 27): create-core.ts stays at most 220 lines, and it makes no decision of its
 * own: no settings key, event or job kind is named there (a rule that reads one lives in the file named for it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve(import.meta.dirname, '../../electron/core');
const read = (file: string) => fs.readFileSync(path.join(CORE, file), 'utf8');
const WIRING = ['create-core.ts', 'wire-embedding.ts', 'wire-learning.ts', 'wire-handlers.ts'];

describe('the composition root', () => {
  it('create-core.ts is at most 220 lines', () => {
    expect(read('create-core.ts').split('\n').length).toBeLessThanOrEqual(220);
  });

  it('the wiring files decide nothing: no event is listened for, no setting or job kind compared', () => {
    for (const file of WIRING) {
      const text = read(file);
      expect({ file, subscribes: /events\.subscribe\(\s*\(/.test(text) }).toEqual({ file, subscribes: false });
      expect({ file, compares: text.match(/\b(m\.event|m\.payload|\.kind|\.state)\s*===?/g) }).toEqual({ file, compares: null });
    }
  });
});
