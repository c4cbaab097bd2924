/**
 * How many event-loop turns (macrotasks) pass while `work` runs: the clock-free measure of whether long work gives the
 * thread that answers calls a turn. Work that holds the thread from start to end lets at most one pass.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), turns };
  } finally {
    running = false;
  }
}
