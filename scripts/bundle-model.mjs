#!/usr/bin/env node
// Copies a local embedding model into build/resources/models/<owner>/<name>/ so that `npm run dist` ships it
// (electron-builder.yml extraResources -> <resources>/models) and the installed app embeds offline from its first
// start. Only the files the app reads are copied (plus the model's licence and small metadata), not every dtype.
//
//   node scripts/bundle-model.mjs [SOURCE] [--model owner/name] [--dtype q8|fp32] [--out DIR]
//
// SOURCE is a models folder holding <owner>/<name>/ (like MNEMO_MODELS_DIR) or the model's own folder;
// default: $MNEMO_MODELS_DIR. Nothing is downloaded.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_MODEL = 'Xenova/multilingual-e5-small';

// Mirrors requiredModelFiles() in electron/core/embedding/onnx.embedder.ts (this script runs under plain Node, which
// cannot import TypeScript); test/unit/electron-packaging.test.ts fails if the two drift apart.
const MODEL_FILE = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' };
const requiredFiles = (dtype) => ['config.json', 'tokenizer.json', 'tokenizer_config.json', MODEL_FILE[dtype]];
// Small top-level files worth shipping beside the weights: metadata transformers.js may read, and the licence.
const isCompanion = (name) => /\.(json|txt|md)$/i.test(name) || /^licen[cs]e/i.test(name);

function fail(message, code = 1) {
  console.error(`bundle-model: ${message}`);
  process.exit(code);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: { model: { type: 'string', default: DEFAULT_MODEL }, dtype: { type: 'string', default: 'q8' }, out: { type: 'string' } },
  });
} catch (e) {
  fail(`${e.message}. Usage: node scripts/bundle-model.mjs [SOURCE] [--model owner/name] [--dtype q8|fp32] [--out DIR]`, 2);
}
const { model, dtype } = args.values;
if (!(dtype in MODEL_FILE)) fail(`--dtype must be q8 or fp32 (got "${dtype}").`, 2);
const segments = model.split('/');
if (segments.some((s) => s === '' || s.startsWith('.'))) fail(`--model must look like owner/name (got "${model}").`, 2);

const source = args.positionals[0] ?? process.env.MNEMO_MODELS_DIR;
if (!source) fail('say where the model is: node scripts/bundle-model.mjs <models folder or model folder> (or set MNEMO_MODELS_DIR).', 2);

const asModelsDir = path.resolve(source, ...segments);
const modelDir = fs.existsSync(path.join(asModelsDir, 'config.json')) ? asModelsDir : path.resolve(source);
const missing = requiredFiles(dtype).filter((f) => !fs.statSync(path.join(modelDir, f), { throwIfNoEntry: false })?.isFile());
if (missing.length > 0) fail(`${modelDir} does not hold ${model} (${dtype}): missing ${missing.join(', ')}.`);

const outRoot = path.resolve(args.values.out ?? path.join(root, 'build', 'resources', 'models'));
const target = path.join(outRoot, ...segments);
fs.rmSync(target, { recursive: true, force: true });

const files = new Set(requiredFiles(dtype));
for (const entry of fs.readdirSync(modelDir, { withFileTypes: true })) {
  if (entry.isFile() && isCompanion(entry.name)) files.add(entry.name);
}
let bytes = 0;
for (const file of files) {
  const from = path.join(modelDir, file);
  const to = path.join(target, file);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  bytes += fs.statSync(to).size;
}
console.log(`Bundled ${model} (${dtype}, ${(bytes / 1e6).toFixed(1)} MB) into ${outRoot.startsWith(root + path.sep) ? path.relative(root, outRoot) : outRoot}; npm run dist will ship it.`);
