/**
 * Forgetting by asking (issue 28 item 1), two tables measured in the same run:
 *
 * - The request rule (electron/core/text/forget-request.ts) beside a plain keyword rule (a message holding forget,
 *   remember, delete, 忘, 记住, 删除 at all): requests found in the labelled corpus (test/fixtures/forget-corpus.ts), and
 *   false alarms on its sentences that only use the words and on every ordinary user message of the corpora the
 *   extraction, instruction and retrieval tests and benchmarks use. A false alarm costs a search and a notice saying
 *   nothing matched, never a deletion of something the request does not name.
 * - What a forget costs the model, beside an ordinary question in the same thread, through the real chat service on a
 *   real database of 2,001 memories (keyword search; the fake Ollama answers at once, so the times are Mnemo's own):
 *   model requests while answering, background requests it leaves (extraction, title), and the time to the stored
 *   answer. The forget is told to the model in the one request that answers; no extraction follows it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { detectForgetRequest } from '../../electron/core/text/forget-request';
import { createClient, unwrap } from '../../shared/client';
import { startFakeOllama } from '../../test/fakes/fake-ollama';
import { FORGET_REQUESTS, NOT_FORGET_REQUESTS } from '../../test/fixtures/forget-corpus';
import { ORDINARY_PHRASINGS } from '../../test/fixtures/instruction-corpus';
import { EXCHANGES } from '../fixtures/extraction-eval';
import { LAPTOP_SESSION } from '../fixtures/laptop-session';
import { QUESTIONS } from '../fixtures/retrieval-eval';
import type { SuiteResult } from '../harness';

/** The baseline: any message that holds a forget or delete word is a request. */
const KEYWORD_RULE = /forget|remember|delete|remove|erase|忘|记住|别记|删除|删掉/iu;

function detectorRows(): Array<Record<string, string | number>> {
  const sets = [
    { texts: 'forget corpus: requests', measure: 'found', items: FORGET_REQUESTS.map(([t]) => t) },
    { texts: 'forget corpus: same words, no request', measure: 'false alarms', items: [...NOT_FORGET_REQUESTS] },
    {
      texts: 'ordinary user messages (extraction eval, laptop session, instruction corpus, retrieval questions)',
      measure: 'false alarms',
      items: [...new Set([...EXCHANGES.map((x) => x.user), ...LAPTOP_SESSION.flatMap((t) => t.exchanges.map((x) => x.text)), ...ORDINARY_PHRASINGS.map((p) => p.text), ...QUESTIONS.map((q) => q.text)])],
    },
  ];
  return sets.map((set) => {
    const count = (hit: (t: string) => boolean) => set.items.filter(hit).length;
    return { texts: set.texts, measure: set.measure, n: set.items.length, 'keyword rule': count((t) => KEYWORD_RULE.test(t)), 'forget-request.ts': count((t) => detectForgetRequest(t) !== null) };
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function costRows(runs: number): Promise<Array<Record<string, string | number>>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-forget-'));
  const fake = await startFakeOllama();
  const core = createCore({ dataDir: path.join(dir, 'data'), host: 'test', llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, embedder: null, startQueue: false });
  try {
    fake.setDefaultReply((req) => (req.purpose === 'extract' ? { content: '{"memories": []}' } : { content: 'OK.' }));
    const client = createClient(createInProcessTransport(core));
    const words = ['tea', 'coffee', 'Lisbon', 'Porto', 'cat', 'dog', 'piano', 'guitar', 'nurse', 'teacher', 'running', 'swimming'];
    const lines = Array.from({ length: 2000 }, (_, i) => `Note ${i}: likes ${words[i % 12]} and ${words[(i * 7) % 12]} on day ${i % 31}`);
    unwrap(await client.call('memory.import', { format: 'text', content: lines.join('\n'), onConflict: 'import' }));
    const berlin = unwrap(await client.call('memory.create', { content: 'Lives in Berlin' }));
    const thread = unwrap(await client.call('thread.create', {}));
    // The title job is the thread's first exchange's: out of the way before measuring.
    unwrap(await client.call('chat.send', { threadId: thread.id, text: 'Hello there, how are you today?' }));
    await core.queue.runUntilIdle();

    const kinds = [
      { exchange: 'a question ("Where do I live these days?")', text: 'Where do I live these days?' },
      { exchange: 'a forget ("Please forget that I live in Berlin")', text: 'Please forget that I live in Berlin' },
    ];
    const rows: Array<Record<string, string | number>> = [];
    for (const kind of kinds) {
      const times: number[] = [];
      let chat = 0;
      let background = 0;
      for (let i = 0; i < runs; i++) {
        if (unwrap(await client.call('memory.get', { memoryId: berlin.id })).memory.status === 'trashed') unwrap(await client.call('memory.restore', { memoryId: berlin.id }));
        const before = fake.requests.filter((q) => q.path === '/api/chat').length;
        const t0 = performance.now();
        unwrap(await client.call('chat.send', { threadId: thread.id, text: kind.text }));
        times.push(performance.now() - t0);
        const answering = fake.requests.filter((q) => q.path === '/api/chat').length;
        chat += answering - before;
        await core.queue.runUntilIdle();
        background += fake.requests.filter((q) => q.path === '/api/chat').length - answering;
      }
      rows.push({ exchange: kind.exchange, runs, 'model requests to answer': (chat / runs).toFixed(1), 'background model requests after': (background / runs).toFixed(1), 'median ms to the stored answer': median(times).toFixed(1) });
    }
    return rows;
  } finally {
    await core.dispose();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function forgetBench(runs: number): Promise<SuiteResult[]> {
  return [
    { suite: 'Forget requests: the rule beside a keyword rule', rows: detectorRows(), notes: [] },
    { suite: `Forget by asking: model cost beside a question (2,001 memories, keyword search, fake Ollama)`, rows: await costRows(runs), notes: [] },
  ];
}
