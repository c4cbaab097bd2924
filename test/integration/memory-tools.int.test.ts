/**
 * Memory tools through the real core on real SQLite, the real Ollama adapter talking to the fake Ollama, which asks
 * for tool calls as Ollama streams them (tool_calls with arguments as an object) when a test scripts it.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { events, type Settings } from '../../shared/contract';
import type { FakeOllamaOptions } from '../fakes/fake-ollama';
import { startFakeOllama } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import type { FakeOpenAiOptions } from '../fakes/fake-openai';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';
import { MEMORY_TOOL_NAMES } from '../../electron/core/chat/memory-tools';

const harnesses = useChatHarnesses();

type WireMessage = { role: string; content: string; tool_name?: string; tool_calls?: Array<{ function: { name: string; arguments: unknown } }> };
const wire = (q: { body: unknown } | undefined) => q!.body as { tools?: Array<{ type: string; function: { name: string } }>; messages: WireMessage[] };
/** The tool messages of a request: a recorded one (body) or the one a scripted reply answers. */
const toolMessages = (r: { body: unknown } | undefined) => wire(r).messages.filter((m) => m.role === 'tool');

describe('memory tools in chat', () => {
  const tempDir = useTempDirs();

  async function harness(settings: Partial<Settings> = {}, fake: FakeOllamaOptions = {}) {
    // Keyword search only (no embedder): what a search finds follows from the words alone.
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false, embedder: null }, fake });
    if (Object.keys(settings).length > 0) unwrap(await h.client.call('settings.update', { patch: settings }));
    return h;
  }
  const chats = (fake: { requests: Array<{ path: string; body: unknown }> }) => fake.requests.filter((q) => q.path === '/api/chat');

  it('the model searches a memory the prompt did not carry, answers with it, and the receipt records the search', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    const cat = unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
    const pinned = unwrap(await client.call('memory.create', { content: 'Name is Ana', pinned: true }));
    fake.script({ toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] }, (request) => {
      const found = toolMessages(request)[0]?.content ?? '';
      return { content: found.includes('Miso') ? 'Your cat is Miso.' : 'I do not know.' };
    });

    const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Your cat is Miso.' });

    const [first, second] = chats(fake).map(wire);
    expect(first!.tools?.map((t) => t.function.name)).toEqual(['search_memory', 'search_conversations', 'forget_memory']);
    // 'tools': the always-on part only (the pinned memory), and the rule that says the tools exist.
    expect(first!.messages[0]!.content).toContain('Name is Ana');
    expect(first!.messages[0]!.content).not.toContain('Miso');
    expect(first!.messages[0]!.content).toContain('search_memory');
    // The call goes back as Ollama wants it: the assistant turn with its tool_calls, then the result named by tool_name.
    expect(second!.messages.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'search_memory', arguments: { query: 'cat' } } }] });
    expect(second!.messages.at(-1)).toMatchObject({ role: 'tool', tool_name: 'search_memory' });
    expect(second!.messages.at(-1)!.content).toContain('The user’s cat is called Miso');

    expect(r.memoriesUsed.map((m) => [m.memoryId, m.reason])).toEqual([
      [pinned.id, 'pinned'],
      [cat.id, 'keyword'],
    ]);
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools).toMatchObject({ offered: true, refused: false, searches: [{ tool: 'search_memory', query: 'cat', memoryIds: [cat.id], messages: [], problem: null, cut: false }] });
    // Stored with the answer, read back with the thread as after a restart.
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.receipts.find((x) => x.messageId === r.assistantMessage.id)!.memories.map((m) => m.memoryId)).toEqual([pinned.id, cat.id]);
    expect(page.receipts.find((x) => x.messageId === r.assistantMessage.id)!.searches).toEqual([expect.objectContaining({ tool: 'search_memory', query: 'cat', memoryIds: [cat.id] })]);
    const detail = unwrap(await client.call('memory.get', { memoryId: cat.id }));
    expect(detail.memory.accessCount).toBe(1);
  });

  it('search_memory never returns a memory the user excluded from the thread', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    const cat = unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
    const thread = unwrap(await client.call('thread.create', {}));
    unwrap(await client.call('thread.excludeMemory', { threadId: thread.id, memoryId: cat.id }));
    fake.script({ toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] }, { content: 'No idea.' });
    const r = unwrap(await client.call('chat.send', { threadId: thread.id, text: 'What is my cat called?' }));
    const result = toolMessages(fake.requests.filter((q) => q.path === '/api/chat')[1])[0]!;
    expect(result.content).not.toContain('Miso');
    expect(r.memoriesUsed).toEqual([]);
  });

  it('search_conversations finds a Chinese message of another thread and its answer, with its title and day, never an incognito one or this prompt’s', async () => {
    const { client, fake } = await harness();
    const trip = unwrap(await client.call('chat.send', { text: '我下个月要去京都看红叶' }));
    unwrap(await client.call('thread.rename', { threadId: trip.threadId, title: '秋天的旅行' }));
    unwrap(await client.call('chat.send', { text: '京都的秘密计划', incognito: true }));
    fake.script({ toolCalls: [{ name: 'search_conversations', arguments: { query: '京都' } }] }, { content: '你说过要去京都看红叶。' });

    const r = unwrap(await client.call('chat.send', { text: '我之前说过京都的什么?' }));
    const result = toolMessages(chats(fake).at(-1))[0]!;
    expect(result.content).toContain('the user wrote: 我下个月要去京都看红叶');
    // The trip's answer (the fake echoes the question) is found too, and said to be the assistant's.
    expect(result.content).toContain('you answered: You said: 我下个月要去京都看红叶');
    expect(result.content).toContain('秋天的旅行');
    expect(result.content).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(result.content).not.toContain('秘密');
    expect(result.content).not.toContain('我之前说过');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools.searches).toEqual([expect.objectContaining({ tool: 'search_conversations', query: '京都', memoryIds: [] })]);
    expect([...context.tools.searches[0]!.messages].sort((a, b) => a.messageId - b.messageId)).toEqual([
      expect.objectContaining({ messageId: trip.userMessage.id, threadId: trip.threadId, threadTitle: '秋天的旅行', role: 'user' }),
      expect.objectContaining({ messageId: trip.assistantMessage.id, threadId: trip.threadId, threadTitle: '秋天的旅行', role: 'assistant' }),
    ]);
    // A receipt even without memories: the search is what the answer used.
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.receipts).toEqual([{ messageId: r.assistantMessage.id, memories: [], searches: context.tools.searches }]);

    // The trip's thread deleted: this answer's record keeps that something was found, not the deleted thread's title.
    unwrap(await client.call('thread.delete', { threadId: trip.threadId }));
    const after = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(after.tools.searches).toEqual([expect.objectContaining({ tool: 'search_conversations', query: '京都', messages: [], forgotten: 2 })]);
    expect(JSON.stringify(after)).not.toContain('秋天的旅行');
  });

  it('a model whose /api/show lacks "tools" gets no tools and the memories injected', async () => {
    const { client, fake } = await harness({}, { models: [{ name: 'gemma:2b', capabilities: ['completion'] }] });
    unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
    fake.script({ content: 'Miso.' });
    const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?', model: 'gemma:2b' }));
    expect(r.assistantMessage.status).toBe('complete');
    const [only] = chats(fake).map(wire);
    expect(only!.tools).toBeUndefined();
    expect(only!.messages[0]!.content).toContain('Miso');
    expect(only!.messages[0]!.content).not.toContain('search_memory');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools).toEqual({ offered: false, searches: [], refused: false });
  });

  it('bad arguments, a wrong type, an unknown tool and a repeated search each get a tool message saying what was wrong', async () => {
    const { client, fake } = await harness({ memoryAccess: 'both' });
    fake.script(
      {
        toolCalls: [
          { name: 'search_memory', arguments: 'not json' },
          { name: 'search_memory', arguments: {} },
          { name: 'search_conversations', arguments: { query: 'tea', limit: 'many' } },
          { name: 'delete_everything', arguments: { query: 'x' } },
        ],
      },
      { toolCalls: [{ name: 'search_memory', arguments: { query: 'tea' } }, { name: 'search_memory', arguments: { query: ' TEA ' } }] },
      { content: 'Done.' },
    );
    const r = unwrap(await client.call('chat.send', { text: 'What tea do I like?' }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Done.' });
    const [, second, third] = chats(fake).map((q) => toolMessages(q).map((m) => m.content));
    expect(second).toHaveLength(4);
    expect(second![0]).toMatch(/^Error: The arguments of search_memory must be a JSON object/);
    expect(second![1]).toMatch(/^Error: "query" is missing or empty/);
    expect(second![2]).toMatch(/^Error: "limit" must be a whole number/);
    expect(second![3]).toMatch(/^Error: There is no tool named "delete_everything"/);
    expect(third!.slice(4)[0]).toMatch(/^No memory matches "tea"/);
    expect(third!.slice(4)[1]).toMatch(/^Error: You already ran search_memory with these arguments/);
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools.searches.map((s) => [s.tool, s.query, s.problem === null])).toEqual([
      ['search_memory', null, false],
      ['search_memory', null, false],
      ['search_conversations', null, false],
      ['delete_everything', null, false],
      ['search_memory', 'tea', true],
      ['search_memory', 'TEA', false],
    ]);
  });

  it('each search that runs is told as it starts (message.searchStarted, the tool and the query, as the contract says), before the answer goes on; a refused call tells none', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
    fake.script(
      { toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }, { name: 'search_memory', arguments: {} }, { name: 'search_conversations', arguments: { query: '京都 旅行' } }] },
      { toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] },
      { content: 'Your cat is Miso.' },
    );
    const seen: string[] = [];
    const offSearch = client.on('message.searchStarted', (payload) => {
      const parsed = events['message.searchStarted'].parse(payload);
      seen.push(`search ${parsed.messageId} ${parsed.tool} ${parsed.query}`);
    });
    const offDelta = client.on('message.delta', ({ content }) => {
      if (content) seen.push('text');
    });
    const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
    offSearch();
    offDelta();
    const id = r.assistantMessage.id;
    // The empty call and the repeated one never ran: nothing to show for them.
    expect(seen.filter((x, i) => x !== 'text' || seen[i - 1] !== 'text')).toEqual([`search ${id} search_memory cat`, `search ${id} search_conversations 京都 旅行`, 'text']);
  });

  it('a model that keeps calling tools is cut after 3 rounds: the next request offers none and the answer is stored', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    let n = 0;
    fake.setDefaultReply((request) => (request.body.tools ? { toolCalls: [{ name: 'search_memory', arguments: { query: `thing ${++n}` } }] } : { content: 'Here is what I found.' }));
    const r = unwrap(await client.call('chat.send', { text: 'Tell me everything.' }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Here is what I found.' });
    const requests = chats(fake).map(wire);
    expect(requests.map((q) => q.tools !== undefined)).toEqual([true, true, true, false]);
    expect(requests[3]!.messages.at(-1)!.content).toContain('No more searches are possible for this answer');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools.searches.map((s) => s.query)).toEqual(['thing 1', 'thing 2', 'thing 3']);
  });

  it('incognito threads are offered no tools', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    fake.script({ content: 'Hi.' });
    unwrap(await client.call('chat.send', { text: 'hello', incognito: true }));
    expect(wire(chats(fake)[0]!).tools).toBeUndefined();
  });

  it('a server that refuses tools gets the answer again with injected memories, once, and the context says so', async () => {
    const { client, fake } = await harness({ memoryAccess: 'tools' });
    unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
    fake.setFault({ kind: 'http-500', message: 'template: this model does not support tools' });
    fake.script({ content: 'Miso.' }, { content: 'Still Miso.' });
    const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Miso.' });
    const [refused, again] = chats(fake).map(wire);
    expect(refused!.tools).toBeDefined();
    expect(again!.tools).toBeUndefined();
    expect(again!.messages[0]!.content).toContain('Miso');
    const context = unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(context.tools).toMatchObject({ offered: false, refused: true });
    // Not offered again to that model in this process.
    unwrap(await client.call('chat.send', { threadId: r.threadId, text: 'And my name?' }));
    expect(wire(chats(fake).at(-1)!).tools).toBeUndefined();
  });

  it('mnemo chat names the searches on stderr, and --json lists them', { timeout: 120_000 }, async () => {
    const fake = await startFakeOllama();
    try {
      const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };
      expect((await runCliInProcess(['settings', 'set', 'memoryAccess', 'tools'], env)).code).toBe(0);
      expect((await runCliInProcess(['memory', 'add', 'The user’s cat is called Miso'], env)).code).toBe(0);
      fake.script({ toolCalls: [{ name: 'search_memory', arguments: { query: 'cat' } }] }, { content: 'Miso.' });
      const plain = await runCliInProcess(['chat', 'What is my cat called?'], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout.trim()).toBe('Miso.');
      expect(plain.stderr).toContain('(searched memories: “cat” → 1)');
      fake.script({ toolCalls: [{ name: 'search_conversations', arguments: { query: 'cat' } }] }, { content: 'You asked before.' });
      const json = await runCliInProcess(['chat', '--json', 'Did I ask about my cat?'], env);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout).searches).toEqual([{ tool: 'search_conversations', query: 'cat', memory_ids: [], in_prompt: 0, message_ids: [1], message_roles: ['user'] }]);
    } finally {
      await fake.close();
    }
  });

  describe('an OpenAI-compatible server', () => {
    async function openai(settings: Partial<Settings>, fake: FakeOpenAiOptions = {}) {
      const h = await harnesses.openAi(tempDir(), { core: { embedder: null }, fake });
      unwrap(await h.client.call('settings.update', { patch: settings }));
      return h;
    }
    const completions = (fake: { requests: Array<{ path: string; body: unknown }> }) =>
      fake.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => q.body as { tools?: unknown[]; messages: Array<Record<string, unknown>> });

    it('auto: no tools (the server cannot say whether the model takes them), memories injected', async () => {
      const { client, fake } = await openai({ memoryAccess: 'auto' });
      unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
      fake.script({ content: 'Miso.' });
      unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
      const [only] = completions(fake);
      expect(only!.tools).toBeUndefined();
      expect(String(only!.messages[0]!.content)).toContain('Miso');
    });

    it('tools: streamed tool_calls (arguments a JSON string in pieces) run, and the result goes back by tool_call_id', async () => {
      const { client, fake } = await openai({ memoryAccess: 'tools' });
      const cat = unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
      fake.script({ toolCalls: [{ name: 'search_memory', arguments: '{"query": "cat", "limit": 3}' }] }, { content: 'Your cat is Miso.' });
      const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
      expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Your cat is Miso.' });
      const [first, second] = completions(fake);
      expect(first!.tools).toHaveLength(MEMORY_TOOL_NAMES.length);
      const call = second!.messages.at(-2) as { role: string; tool_calls: Array<{ id: string; type: string; function: { name: string; arguments: string } }> };
      expect(call).toMatchObject({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'search_memory', arguments: '{"query": "cat", "limit": 3}' } }] });
      expect(second!.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.tool_calls[0]!.id });
      expect(String(second!.messages.at(-1)!.content)).toContain('Miso');
      expect(r.memoriesUsed.map((m) => m.memoryId)).toEqual([cat.id]);
    });

    it('a server that refuses tools: the answer comes with injected memories instead', async () => {
      const { client, fake } = await openai({ memoryAccess: 'both' }, { toolsRefused: true });
      unwrap(await client.call('memory.create', { content: 'The user’s cat is called Miso' }));
      fake.script({ content: 'Miso.' });
      const r = unwrap(await client.call('chat.send', { text: 'What is my cat called?' }));
      expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Miso.' });
      const [refused, again] = completions(fake);
      expect(refused!.tools).toHaveLength(MEMORY_TOOL_NAMES.length);
      expect(again!.tools).toBeUndefined();
      expect(unwrap(await client.call('chat.context', { messageId: r.assistantMessage.id }))!.tools.refused).toBe(true);
    });
  });
});
