/**
 * One reply per thread across processes (chat/reply-writer.ts), with the real terminal host on one data folder: while
 * `mnemo chat` (process A) writes a reply into a thread, the fake Ollama holding its stream open, a second `mnemo chat`
 * into that thread (process B) is refused with CONFLICT and told what to do; once A has finished, B is answered with
 * A's answer in its prompt. A writer killed with kill -9 mid-reply does not block the thread, even while it is still
 * a zombie (its parent never reaps it, as in a container without an init): liveness is never judged by pid alone.
 *
 * Fakes only at the process edge: Ollama is a fake server speaking its real protocol; CLI, core and database are real.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anotherWriterMessage } from '../../electron/core/chat/reply-writer';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { processState, waitForState } from '../support/process-state';
import { ROOT, runCli } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

/** Each CLI run starts a fresh tsx process: seconds on a loaded machine. */
const TIMEOUT_MS = 180_000;

interface Chat {
  thread_id: number;
  message_id: number;
  reply: string;
  status: string;
}

describe('one reply per thread across processes (the terminal host, twice)', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;
  /** Replies to these questions wait until released; `asked` resolves when the model has been asked for one. */
  const holds = new Map<string, { asked: () => void; held: Promise<void> }>();

  function hold(question: string): { asked: Promise<void>; release: () => void } {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = () => {};
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    holds.set(question, { asked, held });
    return { asked: wasAsked, release };
  }

  beforeAll(async () => {
    fake = await startFakeOllama();
    fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      const held = holds.get(last);
      held?.asked();
      return { content: `Answer to ${last}`, ...(held ? { hold: held.held } : {}) };
    });
  });
  afterAll(async () => {
    await fake.close();
  });

  async function threadWithOneExchange(env: Record<string, string>): Promise<Chat> {
    const first = await runCli(['chat', '--json', 'I like tea'], env);
    expect(first.code, first.stderr).toBe(0);
    return JSON.parse(first.stdout) as Chat;
  }

  it('refuses a second writer while the first writes, and answers it once the first has finished', { timeout: TIMEOUT_MS }, async () => {
    const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };
    const first = await threadWithOneExchange(env);
    const thread = String(first.thread_id);

    const a = hold('question A');
    const writing = runCli(['chat', '--json', '--thread', thread, 'question A'], env);
    await a.asked;
    const refused = await runCli(['chat', '--thread', thread, 'question B'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(anotherWriterMessage('send again'));
    const regenerate = await runCli(['chat', '--regenerate', String(first.message_id)], env);
    expect(regenerate.code).toBe(1);
    expect(regenerate.stderr).toContain(anotherWriterMessage('regenerate'));

    a.release();
    const written = await writing;
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ reply: 'Answer to question A', status: 'complete' });
    const b = await runCli(['chat', '--json', '--thread', thread, 'question B'], env);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ reply: 'Answer to question B', status: 'complete' });
    const prompt = fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> };
    expect(prompt.messages.map((m) => m.content)).toEqual(expect.arrayContaining(['question A', 'Answer to question A', 'question B']));
  });

  const proc = fs.existsSync('/proc/self/stat');
  it.skipIf(!proc)(`a writer killed with kill -9 and left a zombie does not block the thread${proc ? '' : ' (skipped: no /proc to see a zombie)'}`, { timeout: TIMEOUT_MS }, async () => {
    const dataDir = tempDir();
    const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: dataDir };
    const first = await threadWithOneExchange(env);
    const thread = String(first.thread_id);

    const c = hold('question C');
    const killed = startUnreaped(['chat', '--json', '--thread', thread, 'question C'], env);
    try {
      const pid = await killed.pid;
      await c.asked;
      process.kill(pid, 'SIGKILL');
      await waitForState(pid, 'Z');

      const d = await runCli(['chat', '--json', '--thread', thread, 'question D'], env);
      expect(d.code, d.stderr).toBe(0);
      expect(JSON.parse(d.stdout)).toMatchObject({ reply: 'Answer to question D', status: 'complete' });
      expect(processState(pid)).toBe('Z'); // still a zombie all along
      const db = new Database(path.join(dataDir, 'mnemo.db'), { readonly: true });
      try {
        const left = db
          .prepare(`SELECT a.status, a.error_code AS errorCode, a.writer FROM messages a JOIN messages q ON q.id = a.parent_id WHERE q.content = 'question C'`)
          .all();
        expect(left).toEqual([{ status: 'stopped', errorCode: 'INTERRUPTED', writer: null }]);
      } finally {
        db.close();
      }
    } finally {
      killed.parent.kill('SIGKILL');
    }
  });
});

/**
 * The CLI as the child of a process that never waits for it (sh starts it in the background, then becomes a sleep):
 * killed, it stays a zombie until that parent is killed.
 */
function startUnreaped(args: string[], env: Record<string, string>) {
  const parent = spawn('sh', ['-c', '"$@" & echo $!; exec sleep 600', 'sh', process.execPath, '--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const pid = new Promise<number>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().split('\n')[0]))));
  return { parent, pid };
}
