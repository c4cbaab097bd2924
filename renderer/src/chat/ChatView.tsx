import { useEffect, useMemo } from 'react';
import { useAppStore } from '../app/app.store';
import { useChatStore } from './chat.store';
import { useMemoryRefsStore } from './memory-refs.store';
import { modelProblem } from '../status/model-problem';
import { useStatusStore } from '../status/status.store';
import { useThreadsStore } from '../threads/threads.store';
import { useT } from '../i18n/use-t';
import { Composer } from './Composer';
import { PlusIcon } from '../ui/icons';
import { MessageList } from './MessageList';
import { ModelSetup } from '../status/public';
import { modKey, newThreadKeys } from '../app/shortcuts';
import { SummaryPanel } from './SummaryPanel';
import { FocusPanel } from './FocusPanel';
import { ThreadHeader } from './ThreadHeader';

export function ChatView() {
  const t = useT();
  const threadId = useThreadsStore((s) => s.selectedId);
  const thread = useThreadsStore((s) => s.threads.find((x) => x.id === s.selectedId) ?? null);
  const loaded = useChatStore((s) => (threadId === null ? false : (s.threads[threadId]?.loaded ?? false)));
  const load = useChatStore((s) => s.load);
  const summaryKnown = useChatStore((s) => threadId !== null && s.summaries[threadId] !== undefined);
  const loadSummary = useChatStore((s) => s.loadSummary);
  const summaryOpen = useAppStore((s) => s.summaryOpen);
  const models = useStatusStore((s) => s.models);
  const threadModel = thread?.model ?? null;
  const problem = useMemo(() => modelProblem(models, threadModel), [models, threadModel]);

  useEffect(() => {
    if (threadId !== null && !loaded) void load(threadId);
  }, [threadId, loaded, load]);
  // Receipts show which memories are excluded here; user messages show what was learned from them.
  const loadExclusions = useMemoryRefsStore((s) => s.loadExclusions);
  const loadLearned = useMemoryRefsStore((s) => s.loadLearned);
  const incognito = thread?.incognito ?? false;
  useEffect(() => {
    if (threadId === null) return;
    void loadExclusions(threadId);
    if (!incognito) void loadLearned(threadId);
  }, [threadId, incognito, loadExclusions, loadLearned]);
  // The header marks a summary that is behind (pending messages) without the panel being open.
  useEffect(() => {
    if (threadId !== null && !summaryKnown) void loadSummary(threadId);
  }, [threadId, summaryKnown, loadSummary]);

  if (threadId === null || !thread) return <Welcome />;
  return (
    <div className={summaryOpen ? 'chat-layout with-panel' : 'chat-layout'}>
      <section className="chat" aria-label={t('chat.region')}>
        <ThreadHeader thread={thread} />
        {problem && <ModelSetup problem={problem} compact />}
        <FocusPanel threadId={threadId} />
        <MessageList threadId={threadId} />
        <Composer threadId={threadId} blocked={problem !== null && problem.kind !== 'unreachable'} />
      </section>
      {summaryOpen && <SummaryPanel threadId={threadId} />}
    </div>
  );
}

function Welcome() {
  const t = useT();
  const create = useThreadsStore((s) => s.create);
  const models = useStatusStore((s) => s.models);
  const host = useStatusStore((s) => s.info?.host);
  const problem = useMemo(() => modelProblem(models), [models]);
  const newKeys = newThreadKeys(host);
  return (
    <section className="chat welcome" aria-label={t('chat.region')}>
      <div className="welcome-inner">
        {problem ? (
          <ModelSetup problem={problem} />
        ) : (
          <>
            <h2 className="welcome-title">{t('welcome.title')}</h2>
            <p className="muted">{models ? t('welcome.ready', { model: models.chatModel.name }) : t('welcome.checking')}</p>
            <button type="button" className="primary large" onClick={() => void create()}>
              <PlusIcon /> {t('welcome.start')}
            </button>
            {host && (
              <p className="muted small">{newKeys ? t('welcome.shortcuts', { newThread: newKeys, mod: modKey() }) : t('welcome.shortcutsNoNew', { mod: modKey() })}</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}
