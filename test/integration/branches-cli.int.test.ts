/** `mnemo chat --edit`, `chat --regenerate` and `thread branch` as a user types them, against a fake Ollama. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { startFakeOllama } from '../fakes/fake-ollama';
import { createChatHarness } from '../support/chat-harness';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('terminal host: versions of messages', () => {
  const tempDir = useTempDirs();

  it('edits a message, regenerates an answer and switches back to the first version', { timeout: 120_000 }, async () => {
    const fake = await startFakeOllama();
    try {
      const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };
      fake.setDefaultReply((req) => ({ content: `Answer to ${req.messages.at(-1)!.content}` }));
      const first = await runCliInProcess(['chat', '--json', 'I like tea'], env);
      expect(first.code, first.stderr).toBe(0);
      const { thread_id: threadId, message_id: answerId } = JSON.parse(first.stdout) as { thread_id: number; message_id: number };
      const questionId = answerId - 1;

      const edited = await runCliInProcess(['chat', '--edit', String(questionId), 'I like coffee'], env);
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout.trim()).toBe('Answer to I like coffee');
      const regenerated = await runCliInProcess(['chat', '--json', '--regenerate', String(answerId + 2)], env);
      expect(regenerated.code, regenerated.stderr).toBe(0);
      expect(JSON.parse(regenerated.stdout)).toMatchObject({ thread_id: threadId, reply: 'Answer to I like coffee' });

      let show = await runCliInProcess(['thread', 'show', String(threadId)], env);
      expect(show.stdout).toContain('I like coffee');
      expect(show.stdout).toContain('(version 2 of 2');
      expect(show.stdout).not.toContain('I like tea');

      const back = await runCliInProcess(['thread', 'branch', String(questionId), '1'], env);
      expect(back.code, back.stderr).toBe(0);
      show = await runCliInProcess(['thread', 'show', String(threadId)], env);
      expect(show.stdout).toContain('I like tea');
      expect(show.stdout).not.toContain('I like coffee');

      // Bad input: an empty edit, an answer edited, a version that does not exist, --edit with --thread.
      const empty = await runCliInProcess(['chat', '--edit', String(questionId)], env);
      expect(empty.code).not.toBe(0);
      expect(empty.stderr).toContain('cannot be empty');
      const answer = await runCliInProcess(['chat', '--edit', String(answerId), 'hi'], env);
      expect(answer.code).not.toBe(0);
      expect(answer.stderr).toContain('Only your own messages can be edited');
      const missing = await runCliInProcess(['thread', 'branch', String(questionId), '3'], env);
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('there is no version 3');
      const both = await runCliInProcess(['chat', '--thread', String(threadId), '--edit', String(questionId), 'x'], env);
      expect(both.code).not.toBe(0);
      expect(both.stderr).toContain('--edit and --regenerate');
    } finally {
      await fake.close();
    }
  });

  it('thread show says when the summary was written from another version of the conversation', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    // The summary is written by the background model in a core, then the user edits the first question.
    const h = await createChatHarness(dir, { fake: { contextLength: 2048 } });
    let coreOpen = true;
    try {
      h.fake.setDefaultReply((req) => ({ content: req.purpose === 'summary' ? 'SUMMARY: tomatoes' : 'Noted.' }));
      // Three messages make a summary due: the edit's branch (two) does not rebuild it.
      unwrap(await h.client.call('settings.update', { patch: { summary: { minNewMessages: 3, minNewTokens: 100_000 } } }));
      const threadId = unwrap(await h.client.call('thread.create', { title: 'Garden' })).id;
      const first = unwrap(await h.client.call('chat.send', { threadId, text: 'We plan a garden with tomatoes' }));
      unwrap(await h.client.call('chat.send', { threadId, text: 'It faces south' }));
      await h.core.queue.waitForIdle();
      const env = { OLLAMA_HOST: h.fake.url, MNEMO_DATA_DIR: path.join(dir, 'data') };
      await h.core.dispose();
      coreOpen = false;
      let show = await runCliInProcess(['thread', 'show', String(threadId)], env);
      expect(show.code, show.stderr).toBe(0);
      expect(show.stdout).toContain('Summary (4 messages):\nSUMMARY: tomatoes');

      const edited = await runCliInProcess(['chat', '--edit', String(first.userMessage.id), 'We plan a garden with roses'], env);
      expect(edited.code, edited.stderr).toBe(0);
      show = await runCliInProcess(['thread', 'show', String(threadId)], env);
      expect(show.stdout).toContain('Summary (4 messages; written from another version of this conversation, not used for the one shown):\nSUMMARY: tomatoes');
    } finally {
      if (coreOpen) await h.close();
      else await h.fake.close();
    }
  });
});
