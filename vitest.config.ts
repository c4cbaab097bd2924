import { defineConfig } from 'vitest/config';

// Three projects, one per kind of test (see docs/ARCHITECTURE.md "Tests"):
// unit: pure logic, no disk; integration: real SQLite files and loopback servers; e2e: real Chromium.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.int.test.ts', 'test/reliability/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll waits for what the app does in the background (an extraction, a toast); the default 1 s is
          // too short on a loaded 2-core machine, where a learned memory can take several seconds to show.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
