/**
 * Why Mnemo's prompt misses LoCoMo questions (issue 28 item 7): a development tool, not a suite. For every question
 * of the development conversations whose prompt holds no evidence memory, prints the question, its evidence
 * memories (with their rank among memory.search's deeper list and the score parts there), and what the prompt
 * carried instead (score, reason), then counts the misses by a rough cause. Run:
 *   npx tsx bench/locomo-misses.ts [--hybrid] [--only 26,30] [--quiet] > misses.txt
 * Causes (first that applies): 'deeper' (an evidence memory ranks within memory.search's top 50 but below the prompt's
 * slots), 'no evidence memory' (no observation cites the evidence turns: no retrieval can hit), 'no shared term' (no evidence memory shares a meaningful term with the question beyond the speakers'
 * names), 'names only' (the only terms shared are names every other memory holds too), 'not found' (otherwise).
 */
import { parseArgs } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, unwrap } from '../shared/client';
import { createCore } from '../electron/core/create-core';
import { createInProcessTransport } from '../electron/core/in-process.transport';
import { createOllamaLlm } from '../electron/core/llm/ollama.llm';
import { meaningfulTerms } from '../electron/core/text/meaningful-terms';
import { startFakeOllama } from '../test/fakes/fake-ollama';
import { createEvalEmbedder, findEvalModel } from './eval-model';
import { CATEGORY_NAMES, conversationTerms, evidenceMemories, questionReach, readLocomo, type LocomoConversation } from './locomo';

const { values } = parseArgs({ options: { hybrid: { type: 'boolean', default: false }, only: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const DEEP = 50;

const data = readLocomo();
if (!data.available) throw new Error(data.why);
const conversations = data.conversations.filter((c) => !values.only || values.only.split(',').includes(c.id));
const causes = new Map<string, number>();
const byCategory = new Map<string, Map<string, number>>();
let asked = 0;
let missed = 0;

for (const c of conversations) await analyse(c);
console.log(`\n${missed} of ${asked} questions missed (${values.hybrid ? 'hybrid' : 'keyword-only'})`);
for (const [cause, n] of [...causes].sort((a, b) => b[1] - a[1])) console.log(`  ${cause}: ${n}`);
for (const [cat, m] of byCategory) console.log(`  ${cat}: ${[...m].map(([k, n]) => `${k} ${n}`).join(', ')}`);

async function analyse(c: LocomoConversation): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-locomo-misses-'));
  const fake = await startFakeOllama();
  const model = findEvalModel();
  if (values.hybrid && !model.available) throw new Error(model.why);
  const embedder = values.hybrid && model.available ? createEvalEmbedder(model.modelsDir) : null;
  const core = createCore({ dataDir: dir, host: 'cli', embedder, startQueue: false, llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url } });
  try {
    const client = createClient(createInProcessTransport(core));
    const index = new Map<number, number>();
    for (const [i, m] of c.memories.entries()) index.set(unwrap(await client.call('memory.create', { content: m.content, category: 'knowledge' })).id, i);
    // A term every tenth memory holds (the speakers' names): the analysis names them (bench/locomo.ts Reach).
    const { keys, held, common } = conversationTerms(c);
    const reach = questionReach(c);
    for (const [qi, q] of c.questions.entries()) {
      asked++;
      const sent = unwrap(await client.call('chat.send', { text: q.text }));
      const prompt = sent.memoriesUsed.map((u) => ({ i: index.get(u.memoryId)!, score: u.score, reason: u.reason }));
      const isEvidence = (i: number) => q.evidence.some((e) => c.memories[i]!.diaIds.has(e));
      if (prompt.some((p) => isEvidence(p.i))) continue;
      missed++;
      const deep = unwrap(await client.call('memory.search', { query: q.text, limit: DEEP })).hits.map((h) => ({ i: index.get(h.memory.id)!, parts: h.parts, score: h.score }));
      const evidence = evidenceMemories(c, q);
      const terms = meaningfulTerms(q.text);
      const shared = (i: number) => terms.filter((t) => keys[i]!.has(t.key)).map((t) => t.key);
      const rankOf = (i: number) => deep.findIndex((d) => d.i === i);
      let cause: string;
      if (evidence.length === 0) cause = 'no evidence memory';
      else if (evidence.some((i) => rankOf(i) >= 0)) cause = 'deeper';
      else if (reach[qi] === 'names only') cause = evidence.every((i) => shared(i).length === 0) ? 'no shared term' : 'names only';
      else cause = 'not found';
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
      const cat = CATEGORY_NAMES[q.category];
      const m = byCategory.get(cat) ?? new Map<string, number>();
      m.set(cause, (m.get(cause) ?? 0) + 1);
      byCategory.set(cat, m);
      if (values.quiet) continue;
      console.log(`\n[${c.id}] (${cat}) ${q.text}  -- ${cause}`);
      console.log(`  terms: ${terms.map((t) => `${t.key}${common(t.key) ? '(common)' : ''} df=${held(t.key)}`).join(' ')}`);
      for (const i of evidence) {
        const r = rankOf(i);
        const parts = r >= 0 ? deep[r]!.parts : null;
        console.log(`  EVIDENCE rank ${r >= 0 ? r + 1 : '-'}${parts ? ` kw ${parts.keywordRank ?? '-'} sem ${parts.semanticRank ?? '-'} sim ${parts.similarity?.toFixed(2) ?? '-'}` : ''} shares [${shared(i).join(' ')}]: ${c.memories[i]!.content}`);
      }
      for (const p of prompt.slice(0, 6)) console.log(`  prompt ${p.score.toFixed(3)} ${p.reason} [${shared(p.i).join(' ')}]: ${c.memories[p.i]!.content}`);
      if (prompt.length > 6) console.log(`  ... ${prompt.length - 6} more in the prompt`);
    }
  } finally {
    await core.dispose();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
