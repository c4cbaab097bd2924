import { describe, expect, it } from 'vitest';
import { createTimeSlicer } from '../../electron/core/runtime/time-slicer';

describe('createTimeSlicer', () => {
  it('gives the event loop a turn only once the slice has used its budget, then starts a new slice', async () => {
    let now = 0;
    const slicer = createTimeSlicer(20, () => now);
    let turns = 0;
    const ticker = () => setImmediate(() => turns++);

    ticker();
    now = 19;
    expect(slicer.spent()).toBe(false);
    await slicer.yield(); // within budget: no macrotask boundary, the ticker has not run
    expect(turns).toBe(0);

    now = 20;
    expect(slicer.spent()).toBe(true);
    await slicer.yield();
    expect(turns).toBe(1);
    expect(slicer.spent()).toBe(false); // the new slice starts at 20
    now = 39;
    expect(slicer.spent()).toBe(false);
    now = 40;
    expect(slicer.spent()).toBe(true);
  });
});
