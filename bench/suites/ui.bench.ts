/**
 * The memory browser in a real browser with 100,000 memories, beside the same measurements with 1,000 (the baseline)
 * in the same run: `npm run web` on a seeded data folder, Debian Chromium through playwright-core, the English UI.
 *
 * - first paint: from the click on "Memories" (a fresh page each time, so nothing is cached) to the first row painted;
 * - keystroke → results: the search box empty and the newest memories listed, after a pause the user types one letter;
 *   from that keydown to the first row painted with different content (the best match of the new search).
 *
 * - beside them, in Node: three letters into a word ("not", "lik", ...: a prefix that matches most of the store, no
 *   longer short, so ranked by BM25), the core's memory.search (limit 100, as the browser asks) beside FTS5 ranking
 *   every match of the same prefix (what the search did before KEYWORD_SCAN bounded it), on the same data file.
 *
 * Both are taken inside the page: the start is the input event's own timestamp, the end the first animation frame
 * after the row changed plus a task (the frame has been painted). Seeding goes through memory.import with no
 * embedder (keyword search only, as on a machine without the embedding model), with the active-memory cap raised so
 * maintenance keeps them all. The web host's first daily backup runs 15 s after it starts; the bench waits for it, so
 * it never lands inside a measurement.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { createCore } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';
import { createClient, unwrap } from '../../shared/client';
import { startFakeOllama } from '../../test/fakes/fake-ollama';
import { apiClient } from '../../test/e2e/support/api';
import { launchBrowser } from '../../test/e2e/support/browser';
import { startMnemo } from '../../test/e2e/support/processes';
import { fmt, summarize, type Stats, type SuiteResult } from '../harness';

const SUBJECTS = ['Prefers', 'Likes', 'Works on', 'Is learning', 'Often mentions', 'Wants to try', 'Dislikes', 'Plans', 'Reads about', 'Collects'];
const THINGS = ['green tea', 'TypeScript', 'mountain hiking', 'jazz piano', 'sourdough bread', 'a garden planner', 'Rust', 'watercolor painting', 'marathons', 'chess openings', 'board games', 'sci-fi novels', 'photography', 'Italian cooking', 'bird watching', 'vintage cameras'];
const WHEN = ['on weekends', 'every morning', 'in winter', 'after work', 'with friends', 'for the kids', 'since last year', 'when travelling'];
const ZH = ['喜欢在周末去公园散步', '正在学习弹钢琴', '每天早上喝绿茶', '计划明年去日本旅行', '收藏老式相机'];
const CATEGORY_HEADINGS = ['## Preferences', '## Projects', '## Skills', '## Knowledge'];
/** Keys typed into an empty search box, one per sample: first letters of the words above ("n": "note", in 3 of 4). */
const LETTERS = 'nstwpmcrbghldeo'.split('');

function seedText(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 500 === 0) lines.push(CATEGORY_HEADINGS[(i / 500) % CATEGORY_HEADINGS.length]!);
    lines.push(
      i % 4 === 3
        ? `- 用户${ZH[i % ZH.length]!}，第${i}条`
        : `- ${SUBJECTS[i % SUBJECTS.length]!} ${THINGS[Math.floor(i / 4) % THINGS.length]!} ${WHEN[Math.floor(i / 64) % WHEN.length]!} (note ${i})`,
    );
  }
  return lines.join('\n');
}

/** Three letters into words of the seed text: prefixes that match a large share of the store. */
const PREFIXES = ['not', 'lik', 'wor', 'pre', 'gre', 'pla', 'mou', 'jaz', 'sou', 'rea', 'wat', 'ita', 'bir', 'vin', 'dis'];

/** memory.search for a three-letter prefix in-process, beside a plain FTS5 query ranking every match, interleaved. */
async function measurePrefixSearch(dataDir: string, samples: number): Promise<{ mnemo: Stats; baseline: Stats; matches: number }> {
  const core = createCore({ dataDir, host: 'cli', embedder: null, startQueue: false });
  const raw = new Database(path.join(dataDir, 'mnemo.db'), { readonly: true });
  try {
    const client = createClient(createInProcessTransport(core));
    const rankAll = raw.prepare('SELECT rowid AS id, rank FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rank LIMIT 1000');
    const count = raw.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?');
    const mnemo: number[] = [];
    const baseline: number[] = [];
    let matches = 0;
    for (let i = 0; i < samples + 1; i++) {
      const prefix = PREFIXES[i % PREFIXES.length]!;
      const match = `"${prefix}"*`;
      for (const which of i % 2 === 0 ? ['mnemo', 'baseline'] : ['baseline', 'mnemo']) {
        const t0 = performance.now();
        if (which === 'mnemo') unwrap(await client.call('memory.search', { query: prefix, limit: 100 }));
        else rankAll.all(match);
        if (i > 0) (which === 'mnemo' ? mnemo : baseline).push(performance.now() - t0);
      }
      if (i > 0) matches += (count.get(match) as { n: number }).n;
    }
    return { mnemo: summarize(mnemo), baseline: summarize(baseline), matches: Math.round(matches / samples) };
  } finally {
    raw.close();
    await core.dispose();
  }
}

async function seed(dataDir: string, count: number): Promise<number> {
  const core = createCore({ dataDir, host: 'cli', embedder: null, startQueue: false });
  try {
    const client = createClient(createInProcessTransport(core));
    unwrap(await client.call('settings.update', { patch: { activeMemoryCap: 1_000_000 } }));
    const t0 = performance.now();
    const report = unwrap(await client.call('memory.import', { content: seedText(count) }));
    if (report.written !== count) throw new Error(`ui bench: seeded ${report.written} of ${count} memories`);
    // Maintenance once now, so the host's daily run is not due while measuring.
    unwrap(await client.call('memory.maintain', {}));
    return performance.now() - t0;
  } finally {
    await core.dispose();
  }
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`ui bench: gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * In the page: the next `event` starts the clock (its own timestamp); it stops at the first painted frame whose first
 * row exists and differs from `firstRowBefore`. Plain JavaScript text: tsx would add helpers to a compiled function.
 */
const ARM = `(({ event, firstRowBefore }) => {
  let start = 0;
  document.addEventListener(event, (e) => { start = e.timeStamp; }, { capture: true, once: true });
  const firstRow = () => document.querySelector('.memory-row:not(.placeholder) .memory-row-content')?.textContent ?? null;
  const ready = () => start > 0 && firstRow() !== null && firstRow() !== firstRowBefore;
  window.mnemoBench = new Promise((resolve, reject) => {
    const observer = new MutationObserver(() => {
      if (!ready()) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    setTimeout(() => { observer.disconnect(); reject(new Error('no change within 30 s')); }, 30000);
  });
})`;

function arm(page: Page, event: 'click' | 'keydown', firstRowBefore: string | null): Promise<void> {
  return page.evaluate(`${ARM}(${JSON.stringify({ event, firstRowBefore })})`);
}

// Text too: this file is checked as Node code (tsconfig.node.json), where `window` does not exist.
const measured = (page: Page) => page.evaluate<number>('window.mnemoBench');
const firstRowText = (page: Page) => page.locator('.memory-row:not(.placeholder) .memory-row-content').first().textContent();

async function measureHost(dataDir: string, ollamaHost: string, modelsDir: string, samples: number): Promise<{ paint: Stats; keystroke: Stats; slowest: string }> {
  const app = await startMnemo('web', ['--port', '0', '--data-dir', dataDir], { OLLAMA_HOST: ollamaHost, MNEMO_MODELS_DIR: modelsDir });
  const browser = await launchBrowser();
  try {
    const api = apiClient(app);
    await until('the first automatic backup', async () => unwrap(await api.call('db.backups', {})).lastAutomaticAt);
    const page = await browser.browser.newPage();
    const nav = page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: /^Memories/ });

    const paint: number[] = [];
    for (let i = 0; i < samples + 1; i++) {
      // A new document each time (the URL differs from the last one only after the first load: reload then).
      if (i === 0) await page.goto(app.url);
      else await page.reload();
      await page.getByRole('status').getByText('Connected').waitFor();
      await page.getByRole('status').getByText(/^Ollama /).waitFor();
      await arm(page, 'click', null);
      await nav.click();
      const ms = await measured(page);
      if (i > 0) paint.push(ms); // the first load warms the host's caches (and the renderer's code)
    }

    const search = page.getByRole('searchbox', { name: 'Search memories' });
    const keystroke: number[] = [];
    const byLetter: Array<{ letter: string; ms: number }> = [];
    for (let i = 0; i < samples + 1; i++) {
      await search.fill('');
      await page.locator('.list-status').getByText(/^[\d,]+ memories$/).waitFor();
      // A user's pause before typing: the search answers a keystroke at once unless another one ran in the last 150 ms.
      await page.waitForTimeout(400);
      const before = await firstRowText(page);
      await arm(page, 'keydown', before);
      const letter = LETTERS[i % LETTERS.length]!;
      await search.press(letter);
      const ms = await measured(page).catch(async (e: unknown) => {
        throw new Error(`ui bench: the results of "${await search.inputValue()}" never showed (${await page.locator('.list-status').textContent()}): ${(e as Error).message}`);
      });
      if (i > 0) {
        keystroke.push(ms);
        byLetter.push({ letter, ms });
      }
    }
    const slowest = byLetter
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((s) => `"${s.letter}" ${fmt(s.ms)} ms`)
      .join(', ');
    return { paint: summarize(paint), keystroke: summarize(keystroke), slowest };
  } finally {
    await browser.close();
    await app.stop();
  }
}

export async function uiBench(size: number, baseline: number, samples: number): Promise<SuiteResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-ui-'));
  const fake = await startFakeOllama();
  try {
    const modelsDir = path.join(dir, 'no-embedding-model');
    fs.mkdirSync(modelsDir);
    const seedMs = await seed(path.join(dir, 'large'), size);
    await seed(path.join(dir, 'baseline'), baseline);
    const large = await measureHost(path.join(dir, 'large'), fake.url, modelsDir, samples);
    const small = await measureHost(path.join(dir, 'baseline'), fake.url, modelsDir, samples);
    const prefix = await measurePrefixSearch(path.join(dir, 'large'), samples);
    const n = (count: number) => count.toLocaleString('en');
    const row = (what: string, count: number, s: Stats, goal: number) => ({
      measurement: what,
      memories: n(count),
      'p50 ms': fmt(s.p50),
      'p95 ms': fmt(s.p95),
      goal: `< ${goal} ms`,
      'p95 meets goal': s.p95 < goal ? 'yes' : 'no',
    });
    return {
      suite: `Memory browser in Chromium (${n(size)} memories beside ${n(baseline)}, ${samples} samples each)`,
      rows: [
        row('first paint: click Memories → first row painted', size, large.paint, 500),
        row('first paint: click Memories → first row painted', baseline, small.paint, 500),
        row('keystroke → first row shows the new results', size, large.keystroke, 100),
        row('keystroke → first row shows the new results', baseline, small.keystroke, 100),
      ],
      notes: [
        `ratio ${n(size)} / ${n(baseline)}: first paint p50 ${(large.paint.p50 / small.paint.p50).toFixed(2)}x, p95 ${(large.paint.p95 / small.paint.p95).toFixed(2)}x; keystroke p50 ${(large.keystroke.p50 / small.keystroke.p50).toFixed(2)}x, p95 ${(large.keystroke.p95 / small.keystroke.p95).toFixed(2)}x`,
        `slowest keystrokes with ${n(size)}: ${large.slowest}`,
        `three letters into a word at ${n(size)} (in Node, ${n(prefix.matches)} matches on average): memory.search p50 ${fmt(prefix.mnemo.p50)} / p95 ${fmt(prefix.mnemo.p95)} ms beside FTS5 ranking every match p50 ${fmt(prefix.baseline.p50)} / p95 ${fmt(prefix.baseline.p95)} ms (${(prefix.baseline.p50 / prefix.mnemo.p50).toFixed(1)}x at p50)`,
        `seeding ${n(size)} memories through memory.import (no embedder): ${fmt(seedMs / 1000)} s`,
        'keystroke: one letter typed into the empty search box after a pause (a lone short prefix: its newest matches, keyword only: semantic search off); fast typing is folded into at most one search per 150 ms, ending with the last text',
      ],
    };
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
