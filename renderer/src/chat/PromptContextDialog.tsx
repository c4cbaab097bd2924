/**
 * What the model saw for one answer (chat.context), like a context window viewer: the parts of the prompt with their
 * tokens against the budget (a bar over the whole context window, and the same figures as a table), whether the
 * instructions or older messages were cut, the system text as sent, and the memories by their text; the output cap
 * the request carried beside the reply reserve (a budget the prompt may not take, not the cap: each named where shown), and whether semantic search was given up for its time budget;
 * the earlier conversations of the time the question asked about that the prompt carried.
 * An answer from before Mnemo recorded this says so.
 */
import { useEffect, useState } from 'react';
import type { PromptContext } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import type { MessageKey } from '../i18n/i18n';
import { useMemoryRefsStore } from './memory-refs.store';
import { useThreadsStore } from '../threads/threads.store';
import { useLanguage, useT } from '../i18n/use-t';
import { Dialog } from '../ui/Dialog';
import { RecalledEpisodeList } from './RecalledEpisodeList';
import { ToolSearchList } from './ToolSearchList';

type Loaded = { kind: 'loading' } | { kind: 'failed' } | { kind: 'done'; context: PromptContext | null };

export function PromptContextDialog({ messageId, onClose }: { messageId: number; onClose(): void }) {
  const t = useT();
  const load = useThreadsStore((s) => s.promptContext);
  const [state, setState] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    void load(messageId).then((r) => live && setState(r === 'failed' ? { kind: 'failed' } : { kind: 'done', context: r }));
    return () => {
      live = false;
    };
  }, [messageId, load]);

  return (
    <Dialog title={t('context.title')} onClose={onClose} wide>
      {state.kind === 'loading' && <p className="muted">{t('common.loading')}</p>}
      {state.kind === 'failed' && <p className="muted">{t('context.failed')}</p>}
      {state.kind === 'done' && state.context === null && <p className="muted">{t('context.notRecorded')}</p>}
      {state.kind === 'done' && state.context !== null && <ContextBreakdown context={state.context} />}
    </Dialog>
  );
}

interface Part {
  key: 'system' | 'memories' | 'workingMemory' | 'summary' | 'recent' | 'question' | 'reply';
  label: string;
  tokens: number;
}

function ContextBreakdown({ context }: { context: PromptContext }) {
  const t = useT();
  const language = useLanguage();
  const n = (value: number) => formatNumber(value, language);
  const { budget } = context;
  const conversation = context.workingMemory.tokens + context.summary.tokens + context.recent.tokens + context.question.tokens;
  const parts: Part[] = [
    { key: 'system', label: t('context.part.system'), tokens: context.system.tokens },
    { key: 'memories', label: t(context.memories.profile ? 'context.part.profileAndMemories' : 'context.part.memories', { count: context.memories.ids.length }), tokens: context.memories.tokens },
    { key: 'workingMemory', label: t('context.part.workingMemory', { count: context.workingMemory.tasks }), tokens: context.workingMemory.tokens },
    { key: 'summary', label: context.summary.included ? t('context.part.summary') : t('context.part.noSummary'), tokens: context.summary.tokens },
    { key: 'recent', label: t('context.part.recent', { count: context.recent.count }), tokens: context.recent.tokens },
    {
      key: 'question',
      label: context.attachments.count > 0 ? t('context.part.questionWithFiles', { count: context.attachments.count, tokens: n(context.attachments.tokens) }) : t('context.part.question'),
      tokens: context.question.tokens,
    },
  ];
  const used = parts.reduce((sum, p) => sum + p.tokens, 0);
  const cuts: MessageKey[] = [];
  if (context.system.globalInstructions?.cut) cuts.push('context.cut.global');
  if (context.system.threadInstructions?.cut) cuts.push('context.cut.thread');
  if (context.conversationCut) cuts.push('context.cut.conversation');
  if (context.attachments.cut) cuts.push('context.cut.attachment');

  return (
    <div className="prompt-context">
      {/* Two figures, each named: the reserve is what the prompt may not take; the cap is what the request allowed (all the window left). */}
      <p>
        {context.replyCap === null
          ? t('context.intro', { model: context.model, used: n(used), window: n(budget.contextWindow), reply: n(budget.reply) })
          : t('context.introWithCap', { model: context.model, used: n(used), window: n(budget.contextWindow), reply: n(budget.reply), cap: n(context.replyCap) })}
      </p>
      <div className="context-bar" aria-hidden="true">
        {[...parts, { key: 'reply' as const, label: '', tokens: budget.reply }].map((p) =>
          p.tokens > 0 ? <span key={p.key} className={`context-seg seg-${p.key}`} style={{ width: `${(100 * p.tokens) / budget.contextWindow}%` }} /> : null,
        )}
      </div>
      <table className="context-table">
        <thead>
          <tr>
            <th scope="col">{t('context.col.part')}</th>
            <th scope="col">{t('context.col.tokens')}</th>
            <th scope="col">{t('context.col.budget')}</th>
          </tr>
        </thead>
        <tbody>
          <Row part={parts[0]!} budget={n(budget.system)} />
          <Row part={parts[1]!} budget={n(budget.memories)} />
          <Row part={parts[2]!} budget="" />
          <Row part={parts[3]!} budget="" />
          <Row part={parts[4]!} budget="" />
          <Row part={parts[5]!} budget="" />
          <tr className="context-subtotal">
            <th scope="row">{t('context.part.conversation')}</th>
            <td>{n(conversation)}</td>
            <td>{n(budget.conversation)}</td>
          </tr>
          <tr>
            <th scope="row">
              <span className="context-swatch seg-reply" aria-hidden="true" /> {t('context.part.reply')}
            </th>
            <td>{context.replyCap === null ? '–' : n(context.replyCap)}</td>
            <td>{n(budget.reply)}</td>
          </tr>
        </tbody>
      </table>
      {context.replyCap !== null && <p className="muted small">{t('context.replyCap', { reply: n(budget.reply), cap: n(context.replyCap) })}</p>}
      {context.retrieval.semanticTimedOut && <p className="notice warn small">{t('context.semanticTimedOut')}</p>}
      {cuts.map((key) => (
        <p key={key} className="notice warn small">
          {t(key)}
        </p>
      ))}
      {context.memories.profileCut && (
        // What the user added at the end of a long profile never reached the model: say so, and where to shorten it.
        <p className="notice warn small">{t('context.cut.profile', { lines: n(context.memories.profileCut.lines), count: context.memories.profileCut.ofLines })}</p>
      )}
      <p className="muted small">{t('context.estimates')}</p>
      <details className="context-details" open>
        <summary>{t('context.systemText')}</summary>
        <pre className="context-system">{context.system.text}</pre>
      </details>
      {context.tools.refused && <p className="notice small">{t('context.toolsRefused')}</p>}
      {context.tools.searches.length > 0 && (
        <details className="context-details" open>
          <summary>{t('context.searches')}</summary>
          <ToolSearchList searches={context.tools.searches} />
        </details>
      )}
      {context.recalled.episodes.length + context.recalled.forgotten > 0 && (
        <details className="context-details" open>
          <summary>{t('context.recalled')}</summary>
          <RecalledEpisodeList episodes={context.recalled.episodes} forgotten={context.recalled.forgotten} />
        </details>
      )}
      {context.memories.ids.length > 0 && (
        <details className="context-details">
          <summary>{t('context.memoriesList', { count: context.memories.ids.length })}</summary>
          <MemoryTexts ids={context.memories.ids} />
        </details>
      )}
    </div>
  );
}

function Row({ part, budget }: { part: Part; budget: string }) {
  const language = useLanguage();
  return (
    <tr>
      <th scope="row">
        <span className={`context-swatch seg-${part.key}`} aria-hidden="true" /> {part.label}
      </th>
      <td>{formatNumber(part.tokens, language)}</td>
      <td>{budget}</td>
    </tr>
  );
}

function MemoryTexts({ ids }: { ids: number[] }) {
  const t = useT();
  const want = useMemoryRefsStore((s) => s.want);
  const byId = useMemoryRefsStore((s) => s.byId);
  const key = ids.join(',');
  useEffect(() => {
    want(key.split(',').map(Number));
  }, [key, want]);
  return (
    <ul className="context-memories">
      {ids.map((id) => {
        const memory = byId[id];
        return <li key={id}>{memory === undefined ? t('common.loading') : memory === null ? t('context.memoryGone') : memory.content}</li>;
      })}
    </ul>
  );
}
