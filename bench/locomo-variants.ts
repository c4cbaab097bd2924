/**
 * LoCoMo's prompt hit under several settings, fast (issue 28 item 7): a development tool, not a suite. Each
 * development conversation's store is built once (bench/ask-mnemo.ts openMnemo), then every question is asked through
 * chat.send once per variant, a variant being a settings patch applied on top of the defaults; the first variant is
 * always the defaults, so every line has its baseline from the same process. Keyword-only takes about 15 s a variant
 * here, hybrid (MiniLM, `bash scripts/prepare-eval-model.sh`) about 30 s, against 4 minutes for the whole suite
 * (bench/suites/locomo-retrieval.bench.ts, which also asks memory.search and runs the baselines). Run:
 *   npx tsx bench/locomo-variants.ts [--hybrid] [--only 26,30] ['{"retrieval":{"limit":16}}' ...]
 * To compare a code change, run it on each commit: the first line of each run is its own baseline.
 */
import { parseArgs } from 'node:util';
import type { Settings } from '../shared/contract';
import { openMnemo, type MnemoStore } from './ask-mnemo';
import { createEvalEmbedder, findEvalModel } from './eval-model';
import { CATEGORY_NAMES, LOCOMO_CATEGORIES, readLocomo, scoreLocomo } from './locomo';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { hybrid: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const data = readLocomo();
if (!data.available) throw new Error(data.why);
const conversations = data.conversations.filter((c) => !values.only || values.only.split(',').includes(c.id));
const model = findEvalModel();
if (values.hybrid && !model.available) throw new Error(model.why);
const variants: Array<Record<string, unknown>> = [{}, ...positionals.map((p) => JSON.parse(p) as Record<string, unknown>)];
const named = [...new Set(variants.flatMap((v) => Object.keys(v)))];

const stores: MnemoStore[] = [];
try {
  for (const c of conversations) {
    const embedder = values.hybrid && model.available ? createEvalEmbedder(model.modelsDir) : null;
    stores.push(await openMnemo(c.memories.map((m) => ({ content: m.content, category: 'knowledge' as const })), { embedder }));
  }
  const defaults = await Promise.all(stores.map((s) => s.patchSettings({})));
  for (const variant of variants) {
    const started = performance.now();
    const prompt: number[][][] = [];
    for (const [i, c] of conversations.entries()) {
      // Every group a variant names back to its default first: no variant inherits from the one before it.
      await stores[i]!.patchSettings(Object.fromEntries(named.map((k) => [k, defaults[i]![k as keyof Settings]])));
      await stores[i]!.patchSettings(variant);
      prompt.push((await stores[i]!.ask(c.questions.map((q) => q.text), { search: false })).prompt);
    }
    const score = scoreLocomo(conversations, prompt);
    const categories = LOCOMO_CATEGORIES.map((k) => `${CATEGORY_NAMES[k]} ${score.byCategory[k].toFixed(3)}`).join(', ');
    console.log(
      `${values.hybrid ? 'hybrid' : 'keyword-only'} ${JSON.stringify(variant)}: prompt hit ${score.hit.toFixed(3)}, evidence recall ${score.evidenceRecall.toFixed(3)} (${categories}), returned ${score.returned.toFixed(1)}; ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
} finally {
  for (const s of stores) await s.dispose();
}
