/**
 * Consolidation as a user meets it, in Chromium against `npm run web` and a fake Ollama: three memories Mnemo learned
 * about one habit (extracted from a message, embedded by the fake's /api/embed as a bag of words, so related texts are
 * near) are summarised by maintenance into one; the timeline shows the summary; the user opens it and undoes it from
 * its history, and the three come back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { FakeInferenceRequest, FakeReply } from '../fakes/fake-ollama';
import { bagOfWordsVector } from '../fakes/bag-of-words.embedder';
import { ChatPage } from './pages/chat.page';
import { MemoriesPage } from './pages/memories.page';
import { TimelinePage } from './pages/timeline.page';
import { unnamedControls } from './support/a11y';
import { seriousViolations } from './support/axe';
import { startWebSession, type WebSession } from './support/web-session';
import { isLearning } from '../support/request-kind';

const TOLD = 'I go for a 5 km morning run before breakfast on weekdays in Central Park near home, with a Garmin watch, since last spring, for the Berlin marathon.';
const HABIT = 'Goes for a 5 km morning run before breakfast on weekdays in Central Park near home';
/** Three facts about one habit: related (similarity about 0.85 as the fake embeds them), not duplicates (below 0.9). */
const RUNNING = [`${HABIT} with a Garmin watch`, `${HABIT} since last spring`, `${HABIT} for the Berlin marathon`];
const SUMMARY = `${HABIT} with a Garmin watch since last spring, for the Berlin marathon`;

/** The background model: the three facts from the message, the summary of them, a title; the chat model says ok. */
function reply(request: FakeInferenceRequest): FakeReply {
  if (isLearning(request.purpose)) {
    const told = JSON.stringify(request.messages).includes('Central Park');
    const memories = told ? RUNNING.map((content) => ({ content, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence: TOLD })) : [];
    return { content: JSON.stringify({ memories }) };
  }
  if (request.purpose === 'consolidate') return { content: SUMMARY };
  if (request.purpose === 'title') return { content: 'Morning runs' };
  return { content: 'Good habit!' };
}

describe('consolidation: a summary on the timeline, undone from its history (web host + fake Ollama)', () => {
  let s: WebSession;
  let memories: MemoriesPage;
  let timeline: TimelinePage;
  let originals: number[] = [];
  let summaryId = 0;

  beforeAll(async () => {
    s = await startWebSession({ name: 'consolidation', reply, ollama: { embedDim: 384, embed: (text, dim) => [...bagOfWordsVector(text, dim)] } });
    memories = new MemoriesPage(s.page);
    timeline = new TimelinePage(s.page);
  }, 120_000);

  afterAll(async () => {
    await s?.close();
  });

  it('Mnemo learns three memories about one habit (semantic search on, from the model server)', async () => {
    // Semantic search from the model server: the fake's nomic-embed-text, which embeds as a bag of words.
    unwrap(await s.api.call('settings.update', { patch: { embeddingProvider: 'ollama', embeddingModel: 'nomic-embed-text' } }));
    await expect.poll(async () => unwrap(await s.api.call('embedding.status', {})).state, { timeout: 60_000 }).toBe('ready');
    unwrap(await s.api.call('chat.send', { text: TOLD }));
    await expect.poll(async () => unwrap(await s.api.call('memory.list', {})).items.length, { timeout: 60_000 }).toBe(3);
    originals = unwrap(await s.api.call('memory.list', {})).items.map((m) => m.id).sort((a, b) => a - b);
  });

  it('maintenance summarises the three into one; the timeline shows it with how many it summarises', async () => {
    const report = unwrap(await s.api.call('memory.maintain', {}));
    expect(report, JSON.stringify(report)).toMatchObject({ merged: 0, clustersQueued: 1 });
    await expect.poll(async () => unwrap(await s.api.call('memory.list', {})).items.map((m) => m.content), { timeout: 60_000 }).toEqual([SUMMARY]);
    summaryId = unwrap(await s.api.call('memory.list', {})).items[0]!.id;

    await new ChatPage(s.page).open(s.app.url);
    await timeline.open();
    const event = timeline.event('Summarised', SUMMARY);
    await expect.poll(() => event.count(), { timeout: 30_000 }).toBe(1);
    expect(await event.textContent()).toContain('summarises 3 memories');
    expect(await unnamedControls(s.page)).toEqual([]);
    expect(await seriousViolations(s.page)).toEqual([]);
  });

  it('the summary’s history undoes it: the three come back, the summary goes to the trash', async () => {
    await timeline.event('Summarised', SUMMARY).getByRole('button', { name: 'Open memory' }).click();
    await expect.poll(() => memories.contentField.inputValue(), { timeout: 30_000 }).toBe(SUMMARY);
    const undo = memories.history.getByRole('button', { name: 'Undo this summary' });
    await expect.poll(() => undo.count()).toBe(1);
    expect(await unnamedControls(s.page)).toEqual([]);
    expect(await seriousViolations(s.page)).toEqual([]);
    await undo.click();

    await expect.poll(() => memories.toasts.textContent(), { timeout: 30_000 }).toContain('The 3 memories are back; the summary is in the trash.');
    await expect.poll(async () => unwrap(await s.api.call('memory.get', { memoryId: summaryId })).memory.status).toBe('trashed');
    for (const id of originals) expect(unwrap(await s.api.call('memory.get', { memoryId: id })).memory).toMatchObject({ status: 'active', supersededBy: null });
    // The pane shows the summary as it is now, without the way to undo it again.
    await expect.poll(() => memories.detail.getByText('In the trash', { exact: false }).count()).toBeGreaterThan(0);
    expect(await undo.count()).toBe(0);
  });
});
