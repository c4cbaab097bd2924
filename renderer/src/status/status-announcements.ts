/**
 * What the status bar says aloud. The bar itself is not a live region: it changes with every queue tick and download
 * percent, and a screen reader would read each of them. Only a change a user may have to act on is announced, once,
 * when it happens: the connection to Mnemo back (its loss is said by the banner, ErrorBanner.tsx), the model server lost or back, a model download finished or
 * failed, the embedding model's download finished or failed, learning paused or resumed, learning held because the
 * computer went on battery (the user's own "Wait for mains power"; a chat's hold, which comes and goes with every
 * message, and the user's own schedule, which they just chose, are shown only), a background job failed.
 *
 * States seen for the first time (a page that just opened, a server found unreachable at the first check) are not
 * announced: they are shown, and a screen that needs them (the welcome, the model setup) says them itself.
 *
 * Everything said is in the UI's language: a pause's reason is said by its code (i18n/error-text.ts), never by the
 * core's English message; a pause because the server is gone is said as the server lost, once, whichever of the
 * queue and the models check tells it first.
 */
import type { MessageKey, Params } from '../i18n/i18n';
import { errorText } from '../i18n/error-text';

export type ServerApi = 'ollama' | 'openai';

export interface StatusFacts {
  connected: boolean;
  /** Connected at least once: only then is a lost connection news. */
  everConnected: boolean;
  /** The model server answered its last check; null until the first check. */
  serverReachable: boolean | null;
  /** Which server the user chose: its name in what is said (Ollama, or a model server by its role). */
  api: ServerApi;
  /** The embedding model's state; null until it is known. */
  embedding: 'ready' | 'loading' | 'downloading' | 'unavailable' | null;
  /** Why the last download of the embedding model failed, until the next one starts (status.store.ts). */
  embeddingDownloadFailure: string | null;
  /** Model downloads (models.pull) by name: finished, and with what error. */
  pulls: Record<string, { done: boolean; failed: boolean }>;
  /** Why the background queue is paused (its error code and the core's English message), or null when it runs. */
  queuePaused: { code: string; message: string } | null;
  /** Background jobs that failed for good; null until the queue is known. */
  deadJobs: number | null;
  /** Learning waits for mains power (QueueState.learning.waitingFor 'battery'); null until the queue is known. */
  learningOnBattery: boolean | null;
}

export interface Announcement {
  key: MessageKey;
  params?: Params;
  /** Said in place of the `{reason}` parameter, in the same language. */
  reason?: { key: MessageKey; params?: Params };
}

/** An announcement's words, with `t` the UI language's translate. */
export function announcementText(a: Announcement, t: (key: MessageKey, params?: Params) => string): string {
  return t(a.key, a.reason ? { ...a.params, reason: t(a.reason.key, a.reason.params) } : a.params);
}

/** Pause codes that mean the model server is gone: said as the server lost. */
const SERVER_GONE = new Set(['OLLAMA_UNREACHABLE', 'LLM_UNREACHABLE']);

function pausedForServer(facts: StatusFacts): boolean {
  return facts.queuePaused !== null && SERVER_GONE.has(facts.queuePaused.code);
}

/**
 * The announcements for one change of the facts, in the order they are read, and the facts to compare the next change
 * with: a downloaded embedding model is loaded before it is ready (downloading -> loading -> ready), and that load is
 * still the download as far as the user is concerned, so it is remembered as 'downloading'.
 */
export function statusAnnouncements(before: StatusFacts, after: StatusFacts): { items: Announcement[]; seen: StatusFacts } {
  const out: Announcement[] = [];
  if (!before.connected && after.connected && before.everConnected) out.push({ key: 'status.announce.reconnected' });

  const ollama = after.api === 'ollama';
  const lost: Announcement = { key: ollama ? 'status.announce.ollamaLost' : 'status.announce.serverLost' };
  // Not again when the queue's pause already said it.
  if (before.serverReachable === true && after.serverReachable === false && !pausedForServer(before)) out.push(lost);
  if (before.serverReachable === false && after.serverReachable === true) out.push({ key: ollama ? 'status.announce.ollamaBack' : 'status.announce.serverBack' });

  for (const [model, pull] of Object.entries(after.pulls)) {
    if (!pull.done || before.pulls[model]?.done !== false) continue;
    out.push({ key: pull.failed ? 'status.announce.pullFailed' : 'status.announce.pullDone', params: { model } });
  }

  if (before.embedding === 'downloading' && after.embedding === 'ready') out.push({ key: 'status.announce.embeddingReady' });
  if (before.embeddingDownloadFailure === null && after.embeddingDownloadFailure !== null) {
    out.push({ key: 'status.announce.embeddingFailed', params: { reason: after.embeddingDownloadFailure } });
  }

  // deadJobs is null until the queue is first known: a queue found paused when the page opens is shown, not news.
  // A pause because the server is gone was said with the server ("answers and learning wait").
  const pause = after.queuePaused;
  if (pause !== null && before.queuePaused === null && before.deadJobs !== null && after.serverReachable !== false) {
    if (pausedForServer(after)) out.push(lost);
    else {
      const { key, params } = errorText(pause);
      out.push({ key: 'status.announce.learningPaused', reason: { key, ...(params ? { params } : {}) } });
    }
  }
  if (before.queuePaused !== null && after.queuePaused === null) out.push({ key: 'status.announce.learningResumed' });
  if (before.deadJobs !== null && after.deadJobs !== null && after.deadJobs > before.deadJobs) out.push({ key: 'status.announce.jobFailed' });
  if (before.learningOnBattery === false && after.learningOnBattery === true) out.push({ key: 'status.announce.learningOnBattery' });
  const stillDownloading = before.embedding === 'downloading' && after.embedding === 'loading';
  return { items: out, seen: stillDownloading ? { ...after, embedding: 'downloading' } : after };
}

/** The part of the status store the announcements follow (status.store.ts). */
export interface StatusSource {
  connected: boolean;
  everConnected: boolean;
  models: { reachable: boolean; api: ServerApi } | null;
  embedding: { state: NonNullable<StatusFacts['embedding']> } | null;
  embeddingDownloadFailure: string | null;
  pulls: Record<string, { done: boolean; error: unknown }>;
  queue: { paused: { code: string; message: string } | null; dead: number; learning?: { waitingFor: string | null } } | null;
}

/** The facts of the status store; `provider` (settings.llmProvider) names the server until models.list has answered. */
export function statusFacts(s: StatusSource, provider: ServerApi): StatusFacts {
  return {
    connected: s.connected,
    everConnected: s.everConnected,
    serverReachable: s.models ? s.models.reachable : null,
    api: s.models?.api ?? provider,
    embedding: s.embedding?.state ?? null,
    embeddingDownloadFailure: s.embeddingDownloadFailure,
    pulls: Object.fromEntries(Object.entries(s.pulls).map(([name, p]) => [name, { done: p.done, failed: p.error != null }])),
    queuePaused: s.queue?.paused ? { code: s.queue.paused.code, message: s.queue.paused.message } : null,
    deadJobs: s.queue ? s.queue.dead : null,
    learningOnBattery: s.queue ? s.queue.learning?.waitingFor === 'battery' : null,
  };
}
