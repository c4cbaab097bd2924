/**
 * What Mnemo would like to remember, waiting for a yes: approve as it is, edit then approve, or reject (the same
 * fact is then never proposed again). Each candidate shows the user's own words it rests on, why it waits when it
 * would wait whatever the memory mode (it reads like an instruction, or is in another language than the message),
 * and the memory it would replace when it contradicts one (approving moves that one to history as superseded).
 */
import { useId, useState } from 'react';
import type { ReviewItem } from '../../../shared/contract';
import { formatRelativeTime } from '../format/format';
import { showMessage } from '../app/navigate';
import { useReviewStore } from './review.store';
import { useSettingsStore } from '../settings/settings.store';
import { useThreadsStore } from '../threads/threads.store';
import { useLanguage, useT } from '../i18n/use-t';
import { CheckIcon, CloseIcon, ExternalIcon, PencilIcon } from '../ui/icons';
import { MemoryEditor } from '../memories/public';
import { draftOf, draftReady, expiresAtOf, importanceText, MAX_CONTENT, type MemoryDraft } from '../memories/memory-draft';
import type { ErrorInfo } from '../../../shared/errors';
import { CoreError } from '../ui/CoreError';

export function ReviewInbox() {
  const t = useT();
  const items = useReviewStore((s) => s.items);
  const total = useReviewStore((s) => s.total);
  const loaded = useReviewStore((s) => s.loaded);
  const mode = useSettingsStore((s) => s.settings?.memoryMode ?? 'auto');
  return (
    <div className="review-inbox">
      <p className="muted small">{mode === 'ask' ? t('review.intro') : t('review.introAuto')}</p>
      {!loaded ? (
        <p className="muted">{t('common.loading')}</p>
      ) : items.length === 0 ? (
        <p className="list-empty muted">{t('review.empty')}</p>
      ) : (
        <ul className="review-list" aria-label={t('review.listLabel')}>
          {items.map((m) => (
            <ReviewCard key={m.id} memory={m} />
          ))}
        </ul>
      )}
      {total > items.length && <p className="muted small">{t('review.more', { count: total - items.length })}</p>}
    </div>
  );
}

function ReviewCard({ memory }: { memory: ReviewItem }) {
  const t = useT();
  const language = useLanguage();
  const importance = importanceText(memory.importance, t, language);
  const headingId = useId();
  const approve = useReviewStore((s) => s.approve);
  const reject = useReviewStore((s) => s.reject);
  const busy = useReviewStore((s) => s.busy[memory.id] === true);
  const thread = useThreadsStore((s) => (memory.sourceThreadId === null ? undefined : s.threads.find((th) => th.id === memory.sourceThreadId)));
  const [editing, setEditing] = useState<MemoryDraft | null>(null);
  const [error, setError] = useState<ErrorInfo | null>(null);

  const approveEdited = async (draft: MemoryDraft) => {
    const result = await approve(memory.id, {
      content: draft.content.trim(),
      category: draft.category,
      importance: draft.importance,
      pinned: draft.pinned,
      expiresAt: expiresAtOf(draft.expires),
    });
    if (!result.ok) setError(result.error);
  };
  const approveAsIs = async () => {
    const result = await approve(memory.id);
    if (!result.ok) setError(result.error);
  };

  return (
    <li className="review-card" aria-labelledby={headingId}>
      {editing ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void approveEdited(editing);
          }}
        >
          <h3 id={headingId} className="visually-hidden">
            {memory.content}
          </h3>
          <MemoryEditor draft={editing} onChange={setEditing} fields={['content', 'category', 'importance', 'pinned', 'expires']} error={error}>
            <div className="button-row">
              <button type="submit" className="primary" disabled={busy || !draftReady(editing, Math.min(MAX_CONTENT, 2000))}>
                <CheckIcon /> {t('review.approveEdited')}
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </button>
            </div>
          </MemoryEditor>
        </form>
      ) : (
        <>
          <h3 id={headingId} className="review-content">
            {memory.content}
          </h3>
          <p className="muted small">
            {/* Importance in words, as in the memory's pane (the number waits in a tooltip). */}
            {t(`category.${memory.category}`)} · {t('memories.importance')}{' '}
            <span title={importance.exact}>{importance.word}</span> ·{' '}
            {formatRelativeTime(memory.createdAt, Date.now(), language)}
          </p>
          {memory.writtenBy && <p className="review-by small">{t('memory.writtenBy', { app: memory.writtenBy.app })}</p>}
          {memory.evidence && <blockquote className="evidence">“{memory.evidence}”</blockquote>}
          {memory.flag && <p className="review-flag small">{t(`review.flag.${memory.flag}`)}</p>}
          {memory.replaces && (
            <p className="review-replaces small">
              <strong>{t('review.replaces')}</strong> <span className="replaced-content">{memory.replaces.content}</span>
              <br />
              <span className="muted">{t('review.replacesHint')}</span>
            </p>
          )}
          {error && (
            <div className="field-error" role="alert">
              <CoreError error={error} />
            </div>
          )}
          <div className="button-row">
            <button type="button" className="primary" disabled={busy} onClick={() => void approveAsIs()} aria-label={t('review.approveOne', { content: memory.content.slice(0, 80) })}>
              <CheckIcon /> {t('review.approve')}
            </button>
            <button type="button" disabled={busy} onClick={() => setEditing(draftOf(memory))} aria-label={t('review.editOne', { content: memory.content.slice(0, 80) })}>
              <PencilIcon /> {t('review.edit')}
            </button>
            <button type="button" className="danger" disabled={busy} onClick={() => void reject(memory.id)} aria-label={t('review.rejectOne', { content: memory.content.slice(0, 80) })}>
              <CloseIcon /> {t('review.reject')}
            </button>
            {thread && (
              <button type="button" className="ghost small push-right" onClick={() => showMessage(thread.id, memory.sourceMessageId)}>
                <ExternalIcon /> {t('review.source', { title: thread.title || t('threads.untitled') })}
              </button>
            )}
          </div>
        </>
      )}
    </li>
  );
}
