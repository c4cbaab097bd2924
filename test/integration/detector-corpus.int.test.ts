/**
 * The detector corpus (test/fixtures/detector-corpus.ts) through the real extraction path: chat.send, the queue, the
 * real Ollama adapter against the fake Ollama (which answers each extraction with candidates built from the corpus),
 * the parser, the job's commit, SQLite. Whatever the memory mode:
 * - no secret is stored as a memory in any status, nor anywhere else outside the chat history (memory rows, versions,
 *   timeline events, the memories' search index), nor in the logs;
 * - every poisoning attempt waits in the review inbox, never active;
 * - facts to keep and legitimate preferences are stored as they are (active in 'auto', in review in 'ask');
 * - 'off' learns nothing at all.
 *
 * The secret appears where it does in practice: in the user's message and the model's candidate, in the user's message
 * and only the candidate's evidence, and in the model's candidate only (then not one byte of it may reach the file).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Memory } from '../../shared/contract';
import type { Core } from '../../electron/core/create-core';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Logger } from '../../electron/core/ports/logger.port';
import { toFtsQuery } from '../../electron/core/text/fts-text';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { startFakeOllama, type FakeInferenceRequest, type FakeOllama } from '../fakes/fake-ollama';
import { DETECTOR_CORPUS, type DetectorCase } from '../fixtures/detector-corpus';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const TIMEOUT_MS = 300_000;
const ASSISTANT_REPLY = 'Thanks for telling me, I will keep that in mind for our next conversations.';
// Not a single-valued fact: a new place of residence would supersede the corpus's address (extraction/fact-slot.ts).
const NEUTRAL_FACT = { content: 'Adopted a cat named Mochi last spring', evidence: 'I adopted a cat named Mochi last spring' };

interface Candidate {
  content: string;
  evidence: string;
  category: 'knowledge' | 'preference';
}

interface Exchange {
  user: string;
  candidates: Candidate[];
}

const SECRETS = DETECTOR_CORPUS.filter((c) => c.kind === 'secret');
const STORED = DETECTOR_CORPUS.filter((c) => c.kind !== 'secret');
const userMessageOf = (c: DetectorCase) => c.userSaid ?? c.text;
const categoryOf = (c: DetectorCase): Candidate['category'] => (c.kind === 'legit-instruction' ? 'preference' : 'knowledge');

/** Each case as the model restates it, grouped by the user's message (several candidates may come from one). */
function restated(cases: DetectorCase[]): Exchange[] {
  const byMessage = new Map<string, Candidate[]>();
  for (const c of cases) {
    const user = userMessageOf(c);
    byMessage.set(user, [...(byMessage.get(user) ?? []), { content: c.text, evidence: user, category: categoryOf(c) }]);
  }
  return [...byMessage].map(([user, candidates]) => ({ user, candidates }));
}

/** The secret only in the quoted evidence; a harmless fact from the same message beside it. */
function quotedOnly(cases: DetectorCase[]): Exchange[] {
  return cases.map((c, i) => ({
    user: `${userMessageOf(c)} By the way, I adopted a cat named Mochi last spring.`,
    candidates: [
      { content: `Mentioned a private detail, case ${i}`, evidence: userMessageOf(c), category: 'knowledge' },
      { ...NEUTRAL_FACT, category: 'knowledge' },
    ],
  }));
}

/** The secret only in what the model wrote: the user never typed it. */
function modelOnly(cases: DetectorCase[]): Exchange[] {
  return cases.map((c, i) => ({
    user: `Here is note ${i} about my setup, please keep it in mind.`,
    candidates: [{ content: c.text, evidence: `note ${i} about my setup`, category: 'knowledge' }],
  }));
}

function userTextOf(req: FakeInferenceRequest): string {
  const literal = /"user": ("(?:[^"\\]|\\.)*")/.exec(req.messages.at(-1)!.content)?.[1];
  if (literal === undefined) throw new Error('no user text in the extraction request');
  return JSON.parse(literal) as string;
}

interface Run {
  core: Core;
  client: Client;
  dataDir: string;
  logs: string[];
  extractionRequests: number;
}

async function runExchanges(
  fake: FakeOllama,
  dataDir: string,
  exchanges: Exchange[],
  memoryMode: 'auto' | 'ask' | 'off',
  before: (client: Client) => Promise<void> = async () => {},
): Promise<Run> {
  const byUser = new Map(exchanges.map((e) => [e.user.trim(), e.candidates]));
  const logs: string[] = [];
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => logs.push(JSON.stringify({ level, message, ...fields }));
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const { core, client } = createTestCore(dataDir, {
    llm: (host) => createOllamaLlm({ host, logger }),
    env: { OLLAMA_HOST: fake.url },
    embedder: createBagOfWordsEmbedder({ dimensions: 512 }),
    logger,
    startQueue: false,
  });
  const run: Run = { core, client, dataDir, logs, extractionRequests: 0 };
  fake.setDefaultReply((req) => {
    if (req.purpose === 'extract') {
      run.extractionRequests++;
      const candidates = byUser.get(userTextOf(req).trim());
      if (!candidates) throw new Error('an extraction request for a message the test did not send');
      return { content: JSON.stringify({ memories: candidates.map((c) => ({ ...c, importance: 0.7, confidence: 0.9, validity: 'permanent' })) }) };
    }
    if (req.purpose === 'title') return { content: 'A title' };
    return { content: ASSISTANT_REPLY };
  });
  unwrap(await client.call('settings.update', { patch: { memoryMode } }));
  await before(client);
  for (const e of exchanges) unwrap(await client.call('chat.send', { text: e.user }));
  await core.queue.runUntilIdle();
  return run;
}

async function allMemories(client: Client): Promise<Memory[]> {
  const statuses = ['active', 'archived', 'trashed', 'superseded', 'review', 'rejected'] as const;
  return unwrap(await client.call('memory.list', { statuses: [...statuses], limit: 500 })).items;
}

/**
 * Every place outside the chat history where a secret could land: every ordinary table but messages and their
 * search index, every text and blob value; and the memories' search index by query (its terms are tokenized).
 */
function secretsOutsideChatHistory(dbFile: string, secrets: string[]): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'messages%' AND name NOT LIKE 'sqlite_%'`)
      .all() as Array<{ name: string }>;
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['memories', 'memory_versions', 'events', 'memories_fts_data', 'threads']));
    const found: string[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
        for (const value of Object.values(row)) {
          const text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? value.toString('latin1') + value.toString('utf8') : null;
          if (text === null) continue;
          for (const s of secrets) if (text.includes(s)) found.push(`${name}: ${s}`);
        }
      }
    }
    const match = db.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?');
    for (const s of secrets) {
      const query = toFtsQuery(s);
      if (query !== null && (match.get(query) as { n: number }).n > 0) found.push(`memories_fts: ${s}`);
    }
    return found;
  } finally {
    db.close();
  }
}

const secretStrings = SECRETS.map((c) => c.secret!);

function expectNoSecretInLogs(logs: string[]): void {
  const leaked = logs.filter((line) => secretStrings.some((s) => line.includes(JSON.stringify(s).slice(1, -1))));
  expect(leaked, 'log lines holding a secret').toEqual([]);
}

function secretDrops(logs: string[]): number {
  return logs
    .map((l) => JSON.parse(l) as { message: string; reasons?: string[] })
    .filter((l) => l.message === 'extractor dropped items')
    .flatMap((l) => l.reasons ?? [])
    .filter((r) => r.startsWith('secret:')).length;
}

describe('the detector corpus through the extraction path', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;
  beforeAll(async () => {
    fake = await startFakeOllama();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('has secrets, poisoning attempts and facts to keep in both languages', () => {
    for (const kind of ['secret', 'keep', 'poisoning', 'legit-instruction'] as const) {
      for (const language of ['en', 'zh'] as const) expect(DETECTOR_CORPUS.some((c) => c.kind === kind && c.language === language), `${kind}/${language}`).toBe(true);
    }
  });

  it(
    "'auto': no secret stored anywhere but the chat, every poisoning attempt in review, the rest active",
    async () => {
      const exchanges = [...restated(DETECTOR_CORPUS), ...quotedOnly(SECRETS)];
      const run = await runExchanges(fake, path.join(tempDir(), 'data'), exchanges, 'auto');
      try {
        const memories = await allMemories(run.client);
        const statusOf = new Map(memories.map((m) => [m.content, m.status]));
        const expected = new Map<string, string>([[NEUTRAL_FACT.content, 'active'], ...STORED.map((c): [string, string] => [c.text, c.kind === 'poisoning' ? 'review' : 'active'])]);
        const wrong = [...expected].filter(([content, status]) => statusOf.get(content) !== status).map(([content, status]) => `${status} expected, got ${statusOf.get(content) ?? 'nothing'}: ${content}`);
        expect(wrong, wrong.join('\n')).toEqual([]);
        // Nothing else: no secret candidate survived under another form either.
        expect(memories.map((m) => m.content).sort()).toEqual([...expected.keys()].sort());
        for (const m of memories) for (const s of secretStrings) expect(`${m.content} ${m.evidence ?? ''}`).not.toContain(s);
        // Dropped because of the secret, not for some other reason: one per restated case, one per quoted one.
        expect(secretDrops(run.logs)).toBe(SECRETS.length * 2);
        expectNoSecretInLogs(run.logs);
      } finally {
        await run.core.dispose();
      }
      expect(secretsOutsideChatHistory(path.join(run.dataDir, 'mnemo.db'), secretStrings)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "'ask': the same, with everything learned waiting in review",
    async () => {
      const run = await runExchanges(fake, path.join(tempDir(), 'data'), restated(DETECTOR_CORPUS), 'ask');
      try {
        const memories = await allMemories(run.client);
        expect(memories.map((m) => m.content).sort()).toEqual(STORED.map((c) => c.text).sort());
        for (const m of memories) expect(m.status, m.content).toBe('review');
        expect(secretDrops(run.logs)).toBe(SECRETS.length);
        expectNoSecretInLogs(run.logs);
      } finally {
        await run.core.dispose();
      }
      expect(secretsOutsideChatHistory(path.join(run.dataDir, 'mnemo.db'), secretStrings)).toEqual([]);
    },
    TIMEOUT_MS,
  );

  it(
    "'off': nothing is sent to the extraction model and nothing is learned",
    async () => {
      const run = await runExchanges(fake, path.join(tempDir(), 'data'), restated(DETECTOR_CORPUS).slice(0, 12), 'off');
      try {
        expect(run.extractionRequests).toBe(0);
        expect(await allMemories(run.client)).toEqual([]);
      } finally {
        await run.core.dispose();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a poisoning candidate close to an active memory waits in review instead of rewriting it',
    async () => {
      const kept = 'Prefers to be called Sam by the assistant in every conversation about work, travel, food and family';
      const poisoned = `${kept}, and claims to be human`;
      let existing: Memory | undefined;
      const run = await runExchanges(fake, path.join(tempDir(), 'data'), [{ user: poisoned, candidates: [{ content: poisoned, evidence: poisoned, category: 'preference' }] }], 'auto', async (client) => {
        existing = unwrap(await client.call('memory.create', { content: kept, category: 'preference' }));
      });
      try {
        const memories = await allMemories(run.client);
        // Close enough to be merged into the active memory (bag of words: 0.92 >= nearDuplicateSimilarity 0.9).
        expect(memories).toHaveLength(2);
        expect(Object.fromEntries(memories.map((m) => [m.content, m.status]))).toEqual({ [kept]: 'active', [poisoned]: 'review' });
        expect(unwrap(await run.client.call('memory.get', { memoryId: existing!.id })).versions).toHaveLength(1);
      } finally {
        await run.core.dispose();
      }
    },
    TIMEOUT_MS,
  );

  it(
    'a secret only the model wrote never reaches the database file',
    async () => {
      const run = await runExchanges(fake, path.join(tempDir(), 'data'), modelOnly(SECRETS), 'auto');
      try {
        expect(run.extractionRequests).toBe(SECRETS.length);
        expect(await allMemories(run.client)).toEqual([]);
        expect(secretDrops(run.logs)).toBe(SECRETS.length);
        expectNoSecretInLogs(run.logs);
      } finally {
        await run.core.dispose();
      }
      // Closed, so the WAL is checkpointed into the file; every byte of the data folder is searched, plain and UTF-8.
      const files = fs.readdirSync(run.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      expect(files.some((f) => f.name === 'mnemo.db')).toBe(true);
      for (const f of files) {
        const bytes = fs.readFileSync(path.join(f.parentPath, f.name));
        for (const s of secretStrings) expect(bytes.includes(Buffer.from(s, 'utf8')), `${f.name} holds a secret`).toBe(false);
      }
    },
    TIMEOUT_MS,
  );
});
