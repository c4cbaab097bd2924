/**
 * Timeouts for unit tests that are slow by nature, not by mistake. The unit project keeps vitest's 5 s default, so a
 * pure-logic test that turns slow still shows; these two kinds get room instead, because on a loaded 2-core laptop
 * (a user's `npm test`, issue #11) they took 6 to 15 s and failed at 5 s. They bound a hang, they measure nothing.
 */

/** A test that starts a tool: ESLint with its config and parser, a node child process, electron-builder's loader. */
export const TOOL_TEST_TIMEOUT_MS = 60_000;

/**
 * A fast-check property with many runs (numRuns of 300 or more) or costly cases (fc.webUrl, whole parses): those
 * that took over a second with two busy loops beside the suite on 2 cores. Lighter properties keep the default.
 */
export const PROPERTY_TEST_TIMEOUT_MS = 60_000;
