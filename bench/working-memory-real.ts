/**
 * What a real small model writes for the working memory (issue 25 follow-up): a development tool, not a suite. Each
 * thread of the laptop session (bench/fixtures/laptop-session.ts, two English, two Chinese, five exchanges each) goes
 * as one update (focus.job.ts focusPrompt, its schema and answer cap) to Gemma 3 270M (bench/eval-llm.ts) run by
 * bench/llama-ollama-server.ts on one CPU thread, temperature 0. Prints per thread: output tokens (the model's own
 * tokenizer), whether the cap stopped it, the time, what the parser read, and the working memory the job would store. Run:
 *   npx tsx bench/working-memory-real.ts
 * Needs the prepared model (`bash scripts/prepare-eval-llm.sh`).
 */
import { EVAL_LLM_NAME, findEvalLlm } from './eval-llm';
import { LAPTOP_SESSION } from './fixtures/laptop-session';
import { startLlamaOllamaServer } from './llama-ollama-server';
import { parseFocusUpdate } from '../electron/core/focus/focus-parse';
import { applyModelUpdate, EMPTY_STATE } from '../electron/core/focus/focus-rules';
import { FOCUS_ANSWER_SCHEMA, FOCUS_ANSWER_TOKENS, focusPrompt, withoutShapeExample } from '../electron/core/focus/focus.job';

const llm = findEvalLlm();
if (!llm.available) throw new Error(llm.why);
const server = await startLlamaOllamaServer({ runtimeDir: llm.runtimeDir, modelPath: llm.modelPath, modelName: EVAL_LLM_NAME, threads: 1 });
console.log(`answer cap ${FOCUS_ANSWER_TOKENS} tokens`);
console.log('| thread | output tokens | stopped by | s | read: focus, tasks (copies of the example) | stored: focus; tasks |');
try {
  for (const thread of LAPTOP_SESSION) {
    const messages = thread.exchanges.flatMap((e, i) => [
      { id: 2 * i + 1, role: 'user' as const, content: e.text },
      { id: 2 * i + 2, role: 'assistant' as const, content: e.reply },
    ]);
    const started = performance.now();
    const res = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({
        model: EVAL_LLM_NAME,
        stream: false,
        format: FOCUS_ANSWER_SCHEMA,
        messages: [{ role: 'user', content: focusPrompt({ state: EMPTY_STATE, messages }) }],
        options: { temperature: 0, num_predict: FOCUS_ANSWER_TOKENS, num_ctx: 4096 },
      }),
    });
    const answer = (await res.json()) as { message: { content: string }; eval_count: number; done_reason: string };
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    let read = 'no update (LLM_BAD_OUTPUT)';
    let stored = '-';
    try {
      const update = parseFocusUpdate(answer.message.content);
      const copies = update.tasks.filter((t) => t.text?.trim().toLowerCase() === 'short task').length;
      read = `${update.focus ? 'yes' : 'no'}, ${update.tasks.length} (${copies})`;
      const state = applyModelUpdate(EMPTY_STATE, withoutShapeExample(update), Date.now(), () => false);
      stored = `${JSON.stringify(state.focus.slice(0, 60))}; ${JSON.stringify(state.tasks.map((t) => t.text.slice(0, 40)))}`;
    } catch {
      // counted as no update
    }
    console.log(`| ${thread.language} ${thread.title} | ${answer.eval_count} | ${answer.done_reason === 'length' ? 'the cap' : 'the model'} | ${seconds} | ${read} | ${stored} |`);
  }
} finally {
  await server.close();
}
