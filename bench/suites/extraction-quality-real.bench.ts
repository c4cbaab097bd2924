/**
 * Extraction quality through a real small model (optional, issue 17 part 6): the exchanges of
 * bench/fixtures/extraction-eval.ts go through Mnemo's real core (chat.send, then the extraction job on the queue),
 * whose real Ollama adapter talks over loopback HTTP to bench/llama-ollama-server.ts running Gemma 3 270M
 * (bench/eval-llm.ts) as the background model. The assistant's replies are the fixture's, scripted by the fake Ollama
 * under another model name, so every run extracts from the same exchanges; only extraction requests (and the titles
 * of the new threads, also background work) reach the real model.
 *
 * Reports per language: exchanges, facts a human would expect learned, those learned (one kept memory holds all of the
 * fact's terms), memories kept (active or in the review inbox), items the validator dropped with their reasons (from
 * the extraction job's log line), answers that were unusable as a whole (LLM_BAD_OUTPUT), memories invented (fewer
 * than half of their meaningful words are the user's), memories kept from exchanges that teach nothing, and wall time.
 * Without the prepared model (`bash scripts/prepare-eval-llm.sh`) it says so and is skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, unwrap } from '../../shared/client';
import type { Memory } from '../../shared/contract';
import { createCore } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';
import type { LlmPort } from '../../electron/core/llm/llm.port';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Logger } from '../../electron/core/ports/logger.port';
import { startFakeOllama } from '../../test/fakes/fake-ollama';
import { EVAL_LLM_NAME, findEvalLlm } from '../eval-llm';
import { EXCHANGES, type EvalExchange } from '../fixtures/extraction-eval';
import { fmt, type SuiteResult } from '../harness';
import { startLlamaOllamaServer } from '../llama-ollama-server';

const SCRIPTED_CHAT_MODEL = 'scripted-reply:latest';
const DETAILS_FILE = path.join(os.tmpdir(), 'mnemo-extraction-quality-real.json');
/** A kept memory is invented when fewer than this share of its meaningful words occur in the user's message. */
const INVENTED_BELOW = 0.5;

interface ExchangeResult {
  lang: EvalExchange['lang'];
  user: string;
  expected: string[];
  learned: string[];
  kept: Array<{ content: string; status: string; invented: boolean; verbatim: boolean; userShare: number }>;
  dropped: string[];
  failures: string[];
  ms: number;
}

export async function extractionQualityRealBench(): Promise<SuiteResult> {
  const suite = `Extraction quality through a real small model (${EVAL_LLM_NAME}, Q4_K_M GGUF on node-llama-cpp, 1 CPU thread)`;
  const llm = findEvalLlm();
  if (!llm.available) return { suite, rows: [], notes: [`skipped: ${llm.why}.`] };

  const loadStarted = performance.now();
  const server = await startLlamaOllamaServer({ runtimeDir: llm.runtimeDir, modelPath: llm.modelPath, modelName: EVAL_LLM_NAME, threads: 1 });
  const loadMs = performance.now() - loadStarted;
  const replies = new Map(EXCHANGES.map((e) => [e.user, e.assistant]));
  const fake = await startFakeOllama({ models: [{ name: SCRIPTED_CHAT_MODEL, capabilities: ['completion'] }] });
  fake.setDefaultReply((request) => {
    const last = [...request.messages].reverse().find((m) => m.role === 'user');
    return { content: replies.get(last?.content ?? '') ?? 'I see.' };
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-extraction-'));
  const log = capturingLogger();
  const real = createOllamaLlm({ host: server.url });
  const scripted = createOllamaLlm({ host: fake.url });
  const core = createCore({
    dataDir: dir,
    host: 'cli',
    embedder: null,
    llm: () => byModel(real, scripted),
    env: { OLLAMA_HOST: server.url },
    logger: log.logger,
  });
  const results: ExchangeResult[] = [];
  const started = performance.now();
  try {
    const client = createClient(createInProcessTransport(core));
    unwrap(await client.call('settings.update', { patch: { chatModel: SCRIPTED_CHAT_MODEL, backgroundModel: EVAL_LLM_NAME } }));
    for (const exchange of EXCHANGES) {
      const t0 = performance.now();
      log.reset();
      const sent = unwrap(await client.call('chat.send', { text: exchange.user }));
      await core.queue.waitForIdle();
      // A retry would ask the same question at temperature 0 again (minutes of CPU for the same answer): the failed
      // attempt is counted and its retry cancelled.
      for (const job of core.queue.list({ status: ['queued'], limit: 100 })) core.queue.cancel(job.id);
      const kept = unwrap(await client.call('memory.list', { sourceMessageId: sent.userMessage.id, statuses: ['active', 'review'], limit: 100 })).items;
      results.push(judge(exchange, kept, log.dropped(), log.failures(), performance.now() - t0));
    }
  } finally {
    await core.dispose();
    await fake.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const wallMs = performance.now() - started;
  fs.writeFileSync(DETAILS_FILE, JSON.stringify(results, null, 1));

  const rows = (['en', 'zh', null] as const).map((lang) => row(lang, lang === null ? results : results.filter((r) => r.lang === lang)));
  const reasons = tally(results.flatMap((r) => r.dropped));
  const failures = tally(results.flatMap((r) => r.failures));
  return {
    suite,
    rows,
    notes: [
      `dropped by the validator, by reason: ${reasons || 'none'}`,
      `unusable answers (extraction job failed; its retry cancelled): ${failures || 'none'}`,
      `model load ${fmt(loadMs)} ms; generation ${fmt(server.stats.generationMs)} ms over ${server.stats.chats} requests to the model (extraction and thread titles); wall ${fmt(wallMs / 1000)} s`,
      'learned: expected facts one kept memory holds all the terms of; kept: active or in the review inbox; invented: kept memories fewer than half of whose meaningful words the user wrote; kept from nothing: kept memories from exchanges that teach nothing; whole message copied: kept memories holding the user’s entire message rather than a fact drawn from it',
      `each exchange's memories, drops and failures: ${DETAILS_FILE}`,
    ],
  };
}

/** Two real Ollama adapters side by side: requests for the scripted chat model go to the fake, the rest to the model. */
function byModel(real: LlmPort, scripted: LlmPort): LlmPort {
  const pick = (model: string) => (model === SCRIPTED_CHAT_MODEL || `${model}:latest` === SCRIPTED_CHAT_MODEL ? scripted : real);
  return {
    api: real.api,
    host: real.host,
    version: (signal) => real.version(signal),
    listModels: async (signal) => [...(await real.listModels(signal)), ...(await scripted.listModels(signal))],
    showModel: (name, signal) => pick(name).showModel(name, signal),
    embed: (model, input, signal) => pick(model).embed(model, input, signal),
    pull: (name, onProgress, signal) => pick(name).pull(name, onProgress, signal),
    chat: (request) => pick(request.model).chat(request),
  };
}

/** The core's log, reduced to what the evaluation counts: the validator's drop reasons and failed extraction jobs. */
function capturingLogger() {
  let dropped: string[] = [];
  let failures: string[] = [];
  const record = (message: string, fields?: Record<string, unknown>) => {
    if (message === 'extractor dropped items' && Array.isArray(fields?.reasons)) dropped.push(...fields.reasons.map(String));
    if ((message === 'job failed, will retry' || message === 'job dead-lettered') && fields?.kind === 'extract') failures.push(String(fields.code));
  };
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  return {
    logger,
    dropped: () => dropped,
    failures: () => failures,
    reset() {
      dropped = [];
      failures = [];
    },
  };
}

function judge(exchange: EvalExchange, kept: Memory[], dropped: string[], failures: string[], ms: number): ExchangeResult {
  const userTerms = new Set(meaningfulTerms(exchange.user));
  return {
    lang: exchange.lang,
    user: exchange.user,
    expected: exchange.facts.map((f) => f.fact),
    learned: exchange.facts.filter((f) => kept.some((m) => f.terms.every((t) => holdsTerm(m.content, t)))).map((f) => f.fact),
    kept: kept.map((m) => {
      const terms = meaningfulTerms(m.content);
      const userShare = terms.length === 0 ? 0 : terms.filter((t) => userTerms.has(t)).length / terms.length;
      const verbatim = squash(m.content).includes(squash(exchange.user));
      return { content: m.content, status: m.status, invented: userShare < INVENTED_BELOW, verbatim, userShare: Number(userShare.toFixed(2)) };
    }),
    dropped,
    failures,
    ms,
  };
}

function row(lang: 'en' | 'zh' | null, results: ExchangeResult[]): Record<string, string | number> {
  const expected = results.reduce((n, r) => n + r.expected.length, 0);
  const learned = results.reduce((n, r) => n + r.learned.length, 0);
  const kept = results.flatMap((r) => r.kept);
  return {
    language: lang === null ? 'all' : lang === 'en' ? 'English' : 'Chinese',
    exchanges: results.length,
    'expected facts': expected,
    learned: `${learned} (${expected === 0 ? '–' : ((learned / expected) * 100).toFixed(0)}%)`,
    kept: kept.length,
    'in review': kept.filter((m) => m.status === 'review').length,
    dropped: results.reduce((n, r) => n + r.dropped.length, 0),
    'unusable answers': results.reduce((n, r) => n + r.failures.length, 0),
    invented: kept.filter((m) => m.invented).length,
    'whole message copied': kept.filter((m) => m.verbatim).length,
    'kept from nothing': results.filter((r) => r.expected.length === 0).reduce((n, r) => n + r.kept.length, 0),
    'ms / exchange (mean)': fmt(results.reduce((n, r) => n + r.ms, 0) / Math.max(1, results.length)),
  };
}

/** Case, spacing and punctuation aside: a memory that holds the user's whole message learned no fact from it. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function tally(items: string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
}

/**
 * Words that carry meaning, on purpose simpler than Mnemo's own term rules (which the validator uses, and which this
 * evaluation must not grade itself with): English words of 3+ letters outside a short stop list, cut to 5 letters as
 * a crude stem; Chinese as overlapping character pairs.
 */
const STOP = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'are', 'was', 'has', 'have', 'who', 'but', 'not', 'about', 'user', "user's", 'they', 'their', 'she', 'her', 'his', 'him', 'from', 'into', 'when', 'which', 'what', 'very', 'also', 'likes', 'like']);
const ZH_STOP = new Set(['用户', '他的', '她的', '我的']);

function meaningfulTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of text.toLowerCase().match(/[a-z][a-z']{2,}|\d+/g) ?? []) if (!STOP.has(word)) terms.push(word.slice(0, 5));
  for (const run of text.match(/\p{Script=Han}+/gu) ?? []) {
    if (run.length === 1) terms.push(run);
    for (let i = 0; i + 1 < run.length; i++) if (!ZH_STOP.has(run.slice(i, i + 2))) terms.push(run.slice(i, i + 2));
  }
  return terms;
}

/** An English term matches a word that starts with it; anything else matches as a substring. */
function holdsTerm(content: string, term: string): boolean {
  const lower = content.toLowerCase();
  if (!/^[a-z0-9]+$/.test(term)) return lower.includes(term);
  return new RegExp(`\\b${term}`).test(lower);
}
