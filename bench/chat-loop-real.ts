/**
 * What a loop costs a chat reply with a real small model (the repetition guard, text/repetition.ts): a development
 * tool, not a suite. Each prompt goes through chat.send of a real core whose Ollama adapter talks to Gemma 3 270M
 * (bench/eval-llm.ts) served by bench/llama-ollama-server.ts on one CPU thread; prints each reply's status, output
 * tokens (the model's own count), time and length kept. Run on two commits to compare:
 *   npx tsx bench/chat-loop-real.ts ["prompt" ...]
 * Needs the prepared model (`bash scripts/prepare-eval-llm.sh`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, unwrap } from '../shared/client';
import { createCore } from '../electron/core/create-core';
import { createInProcessTransport } from '../electron/core/in-process.transport';
import { createOllamaLlm } from '../electron/core/llm/ollama.llm';
import { EVAL_LLM_NAME, findEvalLlm } from './eval-llm';
import { startLlamaOllamaServer } from './llama-ollama-server';

const prompts = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['Tell me a long story about your day.', '给我讲一个很长的故事。'];
const llm = findEvalLlm();
if (!llm.available) throw new Error(llm.why);
const server = await startLlamaOllamaServer({ runtimeDir: llm.runtimeDir, modelPath: llm.modelPath, modelName: EVAL_LLM_NAME, threads: 1 });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-chat-loop-'));
const core = createCore({ dataDir: dir, host: 'cli', embedder: null, startQueue: false, llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: server.url } });
console.log('| prompt | status | output tokens | s | characters kept |');
try {
  const client = createClient(createInProcessTransport(core));
  for (const text of prompts) {
    const started = performance.now();
    const { assistantMessage: m } = unwrap(await client.call('chat.send', { text, model: EVAL_LLM_NAME }));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`| ${text} | ${m.status}${m.errorCode ? ` (${m.errorCode})` : ''} | ${m.completionTokens ?? '-'} | ${seconds} | ${m.content.length} |`);
  }
} finally {
  await core.dispose();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
