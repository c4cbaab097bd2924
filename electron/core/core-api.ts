/**
 * What a host hands the composition root (create-core.ts) and what it gets back: the options that differ by
 * environment, and the Core a host talks to through envelopes and events only.
 */
import type { AppInfo, EventMessage } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import type { WhenDatabaseMissing } from './backup/missing-database';
import type { Embedder } from './embedding/embedder.port';
import type { LocalEmbeddingThread } from './embedding/embedder.factory';
import type { JobQueue } from './jobs/job-queue';
import type { LlmPort } from './llm/llm.port';
import type { ModelLaneOptions } from './llm/model-lane';
import type { McpMemoryTools } from './mcp/mcp-memory-tools';
import type { Clock } from './ports/clock.port';
import type { Logger } from './ports/logger.port';
import type { Paths } from './ports/paths.port';
import type { SecretStore } from './ports/secret-store.port';

export interface CoreOptions {
  dataDir: string;
  host: AppInfo['host'];
  version?: string;
  /** Builds the Ollama port for a host (tests point the real Ollama adapter at a fake server). Default: Ollama's adapter. */
  llm?: (host: string) => LlmPort;
  /** Where secrets (the model server's API key) are kept. Default: a 0600 file in the data folder (ports/file-secret-store.ts). */
  secrets?: SecretStore;
  /** The initial embedder; null: none (keyword search only). Default: the one settings choose. A change of the
   * embedding settings switches model either way. */
  embedder?: Embedder | null;
  /** Where the local embedding model is downloaded from, on request. Default: HF_ENDPOINT, else the Hugging Face Hub. */
  modelHub?: string;
  /** Where the local embedding model runs: a worker thread (default), or the thread that answers calls (the
   * benchmarks' "before"). */
  embeddingThread?: LocalEmbeddingThread;
  /** False: background model work never waits for the chat (the model-lane benchmark's "before"). Default true. */
  chatFirst?: boolean;
  /**
   * The lane's grace windows and polling (default LANE_TIMING): the model-lane benchmark, which runs time faster, scales
   * them with it; a test moves the lane's own clock (`now`) past a grace instead of waiting it out.
   */
  laneTiming?: Partial<Pick<ModelLaneOptions, 'now' | 'typingGraceMs' | 'afterChatGraceMs' | 'awayAfterMs' | 'pollMs' | 'assumedPauseMs'>>;
  /** Start the background queue (default true). The CLI's `queue run` and some tests drive it themselves. */
  startQueue?: boolean;
  /** Environment for OLLAMA_HOST, MNEMO_MODELS_DIR and friends (default process.env). */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  logger?: Logger;
  paths?: Partial<Paths>;
  /** Validate every handler's output against the contract (on in tests and development). */
  checkOutputs?: boolean;
  /** Run the daily automatic backup and memory maintenance (when due at start, then every 24 h). Default: only in the
   * long-running hosts (electron, web); a CLI command or a test does not back up or maintain on its own. */
  dailyTasks?: boolean;
  /** The database is missing or empty beside a good backup (backup/missing-database.ts): 'refuse' (default: DB_MISSING,
   * the host asks the user), 'restore-newest' or 'start-empty', as the user chose. */
  whenDatabaseMissing?: WhenDatabaseMissing;
}

export interface Core {
  readonly paths: Paths;
  /** Runs one operation. Never throws: failures come back as `{ok:false,error}`. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(listener: (message: EventMessage) => void): () => void;
  /** The background queue, for hosts that drive it (CLI `queue run`) and for tests (`waitForIdle`). */
  readonly queue: JobQueue;
  /** What an app connected over MCP may ask (`mnemo mcp` serves it: cli/mcp-server.ts). */
  readonly mcpTools: McpMemoryTools;
  /** The desktop host's power monitor: background model work may wait for mains power (settings.learningNeedsPower). */
  setOnBattery(onBattery: boolean): void;
  /** Runs the daily tasks that are due now, as the long-running hosts' periodic check does; resolves with their names. */
  runDailyTasks(): Promise<string[]>;
  dispose(): Promise<void>;
}
