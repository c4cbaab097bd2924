import { describe, expect, it } from 'vitest';
import { translate } from '../../renderer/src/i18n/i18n';
import { modelServerLine, type ModelServerView } from '../../renderer/src/status/model-server-line';
import { announcementText, statusAnnouncements, statusFacts, type StatusSource } from '../../renderer/src/status/status-announcements';

/** A status store that has been running for a while: connected, Ollama up, semantic search on, the queue idle. */
const running: StatusSource = {
  connected: true,
  everConnected: true,
  models: { reachable: true, api: 'ollama' },
  embedding: { state: 'ready' },
  embeddingDownloadFailure: null,
  pulls: {},
  queue: { paused: null, dead: 0 },
};
const fresh: StatusSource = { ...running, connected: false, everConnected: false, models: null, embedding: null, queue: null };

/** What is said when the store goes through these states, one announcement list per change. */
function said(states: StatusSource[], provider: 'ollama' | 'openai' = 'ollama', language: 'en' | 'zh-CN' = 'en'): string[] {
  const out: string[] = [];
  let before = statusFacts(states[0]!, provider);
  for (const state of states.slice(1)) {
    const { items, seen } = statusAnnouncements(before, statusFacts(state, provider));
    out.push(...items.map((a) => announcementText(a, (key, params) => translate(language, key, params))));
    before = seen;
  }
  return out;
}

describe('status bar announcements', () => {
  it('says once that learning waits for mains power when the computer goes on battery, never a chat\'s hold or a page that opens so', () => {
    const waiting = (waitingFor: string | null): StatusSource => ({ ...running, queue: { paused: null, dead: 0, learning: { waitingFor } } });
    expect(said([waiting(null), waiting('chat'), waiting(null), waiting('battery'), waiting('battery')])).toEqual(['On battery: learning waits for mains power.']);
    expect(said([fresh, waiting('battery')])).toEqual([]);
    expect(said([waiting('paused'), waiting('battery')], 'ollama', 'zh-CN')).toEqual(['正在使用电池：学习会等到接通电源后再继续。']);
  });

  it('says nothing for queue ticks, download percents, imports or a page that just opened', () => {
    // Progress (queue counts, percents, import counts) is not among the facts: a download under way says nothing.
    const ticking: StatusSource = { ...running, pulls: { 'qwen3:4b': { done: false, error: null } }, embedding: { state: 'downloading' } };
    expect(said([running, ticking, ticking, ticking])).toEqual([]);
    // Opening: connection, first models check (even unreachable), embedding and queue seen for the first time.
    expect(said([fresh, { ...fresh, connected: true, everConnected: true }, { ...running, models: { reachable: false, api: 'ollama' }, queue: { paused: { code: 'OLLAMA_UNREACHABLE', message: 'Ollama is not running.' }, dead: 2 } }])).toEqual([]);
    expect(said([fresh, { ...fresh, embedding: { state: 'loading' } }, { ...fresh, embedding: { state: 'ready' } }])).toEqual([]);
  });

  it('says when the connection to Mnemo is back (its loss is the banner’s alert)', () => {
    const lost = { ...running, connected: false };
    expect(said([running, lost, running])).toEqual(['Connected to Mnemo again.']);
  });

  it('says when the model server is lost and back, by the name of the server the user chose', () => {
    const down = (api: 'ollama' | 'openai'): StatusSource => ({ ...running, models: { reachable: false, api } });
    const up = (api: 'ollama' | 'openai'): StatusSource => ({ ...running, models: { reachable: true, api } });
    expect(said([up('ollama'), down('ollama'), up('ollama')])).toEqual([
      'Ollama can’t be reached: answers and learning wait until it is back.',
      'Ollama is reachable again.',
    ]);
    const openai = said([up('openai'), down('openai'), up('openai')], 'openai');
    expect(openai).toEqual(['The model server can’t be reached: answers and learning wait until it is back.', 'The model server is reachable again.']);
    expect(said([up('openai'), down('openai')], 'openai', 'zh-CN')).toEqual(['无法连接模型服务器：回答和学习会等它恢复后再继续。']);
  });

  it('says when a download finishes or fails, not how far it is', () => {
    const pulling = (percentDone: boolean, error: unknown = null): StatusSource => ({ ...running, pulls: { 'qwen3:4b': { done: percentDone, error } } });
    expect(said([pulling(false), pulling(false), pulling(true)])).toEqual(['Downloaded qwen3:4b.']);
    expect(said([pulling(false), pulling(true, { code: 'OLLAMA_UNREACHABLE' })])).toEqual(['The download of qwen3:4b failed.']);
    const downloading = { ...running, embedding: { state: 'downloading' as const } };
    expect(said([downloading, downloading, running])).toEqual(['The embedding model is downloaded: semantic search is on.']);
    // As the core does it: the downloaded model is loaded, then ready.
    const loading = { ...running, embedding: { state: 'loading' as const } };
    expect(said([downloading, loading, running])).toEqual(['The embedding model is downloaded: semantic search is on.']);
    const failed = { ...running, embedding: { state: 'unavailable' as const }, embeddingDownloadFailure: 'No network.' };
    expect(said([downloading, failed])).toEqual(['The download of the embedding model failed. No network.']);
  });

  it('says when learning pauses, resumes, or a background job fails for good', () => {
    const diskFull = 'SQLITE_FULL: database or disk is full';
    const paused = { ...running, queue: { paused: { code: 'STORAGE_FULL', message: diskFull }, dead: 0 } };
    const spaceText = translate('en', 'errorCode.STORAGE_FULL');
    expect(said([running, paused, paused, running])).toEqual([`Learning paused. ${spaceText}`, 'Learning resumed.']);
    expect(said([running, { ...running, queue: { paused: null, dead: 1 } }])).toEqual(['A background task failed.']);
    // Paused because the server went away, the models check telling it too: said once, with the server.
    const pausedForServer = { ...running, queue: { paused: { code: 'OLLAMA_UNREACHABLE', message: 'Cannot reach Ollama at http://127.0.0.1:11434.' }, dead: 0 } };
    const serverGone = { ...pausedForServer, models: { reachable: false, api: 'ollama' as const } };
    const lost = 'Ollama can’t be reached: answers and learning wait until it is back.';
    expect(said([running, serverGone, running])).toEqual([lost, 'Ollama is reachable again.', 'Learning resumed.']);
    // The queue tells first (a job found the server gone), the models check after it: still said once.
    expect(said([running, pausedForServer, serverGone, running])).toEqual([lost, 'Ollama is reachable again.', 'Learning resumed.']);
  });

  it('says a pause in the UI’s language, never with the core’s English words', () => {
    const core = { STORAGE_FULL: 'SQLITE_FULL: database or disk is full', DB_BUSY: 'database is locked', MODEL_NOT_FOUND: 'Model "llama3.2" is not installed in Ollama.', OLLAMA_UNREACHABLE: 'Cannot reach Ollama at http://127.0.0.1:41351. Start it with "ollama serve" or set OLLAMA_HOST.', SOMETHING_NEW: 'A newer core failed.' };
    for (const [code, message] of Object.entries(core)) {
      const [text, ...more] = said([running, { ...running, queue: { paused: { code, message }, dead: 0 } }], 'ollama', 'zh-CN');
      expect(more).toEqual([]);
      expect(text, code).not.toContain(message);
      expect(text, code).not.toMatch(/OLLAMA_HOST|Cannot|database/);
      expect(text, code).toMatch(/^(学习已暂停。|无法连接 Ollama)/);
    }
    expect(said([running, { ...running, queue: { paused: { code: 'OLLAMA_UNREACHABLE', message: core.OLLAMA_UNREACHABLE }, dead: 0 } }], 'ollama', 'zh-CN')).toEqual(['无法连接 Ollama：回答和学习会等它恢复后再继续。']);
  });
});

describe('status bar model server line', () => {
  const view = (api: 'ollama' | 'openai', reachable = true): ModelServerView => ({ api, reachable, version: api === 'ollama' ? '0.12.6' : null, chatModel: { name: 'llama3.2', installed: true } });
  const line = (models: ModelServerView | null, provider: 'ollama' | 'openai', language: 'en' | 'zh-CN' = 'en') => {
    const l = modelServerLine(models, provider, 'llama3.2');
    return translate(language, l.key, l.params);
  };

  it('names Ollama only when the user chose Ollama', () => {
    expect([line(null, 'ollama'), line(view('ollama', false), 'ollama'), line(view('ollama'), 'ollama')]).toEqual([
      'Checking Ollama…',
      'Ollama unreachable',
      'Ollama 0.12.6 · llama3.2',
    ]);
    const openai = [line(null, 'openai'), line(view('openai', false), 'openai'), line(view('openai'), 'openai')];
    expect(openai).toEqual(['Checking the model server…', 'Model server unreachable', 'Model server · llama3.2']);
    for (const language of ['en', 'zh-CN'] as const) {
      for (const text of [line(null, 'openai', language), line(view('openai', false), 'openai', language), line(view('openai'), 'openai', language)]) {
        expect(text).not.toMatch(/ollama/i);
      }
    }
  });
});
