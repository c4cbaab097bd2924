import { memo, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { EpisodeRef, ForgetNotice, Message, ToolSearch } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { formatBytes, formatDuration, formatNumber, formatTime } from '../format/format';
import { copyText } from '../markdown/copy-text';
import { Markdown } from '../markdown/Markdown';
import { useChatStore } from './chat.store';
import type { MemoryUse } from './chat-merge';
import { useLanguage, useT } from '../i18n/use-t';
import type { MessageKey } from '../i18n/i18n';
import { CopyIcon, RetryIcon } from '../ui/icons';
import { CoreError } from '../ui/CoreError';
import { LearnedChips } from './LearnedChips';
import { ForgetNotices } from './ForgetNotices';
import { MemoryReceipt } from './MemoryReceipt';
import { SearchingLine, useSearching } from './SearchingLine';
import { PromptContextDialog } from './PromptContextDialog';
import { EditMessageForm, focusAfter, VersionSwitcher } from './MessageVersions';

interface Props {
  message: Message;
  receipt: MemoryUse[] | undefined;
  /** The searches the model ran with the memory tools for this answer. */
  searches?: ToolSearch[] | undefined;
  /** The episodes of the question's time its prompt carried (recall by time). */
  recalled?: EpisodeRef[] | undefined;
  /** Requests to forget handled for this answer. */
  forgets?: ForgetNotice[] | undefined;
  isLast: boolean;
  /** The failure of the last send, shown on the reply it belongs to. */
  error: ErrorInfo | null;
}

/** Why a stopped reply stopped, by its error code (none: the user stopped it). */
const STOP_HINTS: Partial<Record<string, MessageKey>> = {
  INTERRUPTED: 'chat.status.interruptedHint',
  REPEATING: 'chat.status.repeatingHint',
};

export const MessageItem = memo(function MessageItem({ message, receipt, searches, recalled, forgets, isLast, error }: Props) {
  if (message.role === 'user') return <UserMessage message={message} />;
  if (message.role === 'system') return null;
  return <AssistantMessage message={message} receipt={receipt} searches={searches} recalled={recalled} forgets={forgets} isLast={isLast} error={error} />;
});

/** A question: editable (a new version; the old one and what followed stay, message-branches.ts), with its versions. */
function UserMessage({ message }: { message: Message }) {
  const t = useT();
  const [editing, setEditing] = useState(false);
  // A cancelled edit gives focus back to the Edit button it came from (the form held it).
  const [refocusEdit, setRefocusEdit] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  useEffect(() => {
    if (!refocusEdit || editing) return;
    editButton.current?.focus();
    setRefocusEdit(false);
  }, [refocusEdit, editing]);
  return (
    <article className="message user" aria-label={t('chat.you')} data-message-id={message.id}>
      {editing ? (
        <EditMessageForm
          message={message}
          onSent={() => setEditing(false)}
          onCancel={() => {
            setEditing(false);
            setRefocusEdit(true);
          }}
        />
      ) : (
        <div className="bubble">{message.content}</div>
      )}
      {message.attachments && message.attachments.length > 0 && <SentAttachments attachments={message.attachments} />}
      <div className="message-meta">
        <VersionSwitcher message={message} />
        {!editing && (
          <button ref={editButton} type="button" className="ghost small" disabled={sending} title={sending ? t('chat.editBusy') : undefined} onClick={() => setEditing(true)}>
            {t('chat.edit')}
          </button>
        )}
        <CopyButton label={t('chat.copyMessage')} text={() => message.content} />
      </div>
      <LearnedChips messageId={message.id} />
    </article>
  );
}

/** The files sent with a user message: name and size, the text folded (what the model was given, before any cut). */
function SentAttachments({ attachments }: { attachments: NonNullable<Message['attachments']> }) {
  const t = useT();
  const language = useLanguage();
  return (
    <div className="message-attachments">
      {attachments.map((a, i) => (
        <details key={`${a.name}-${i}`}>
          <summary>
            {t('chat.attachment', { name: a.name, size: formatBytes(new TextEncoder().encode(a.text).length, language) })}
            {a.learn === true && <span className="attachment-learned"> · {t('chat.attachmentLearn')}</span>}
          </summary>
          <pre>{a.text}</pre>
        </details>
      ))}
    </div>
  );
}

function AssistantMessage({ message, receipt, searches, recalled, forgets, isLast, error }: Props) {
  const t = useT();
  const retry = useChatStore((s) => s.retry);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  const streaming = message.status === 'streaming';
  const waiting = streaming && message.content === '' && message.thinking === '';
  const searching = useSearching(message.threadId, message.id);
  const body = useRef<HTMLDivElement>(null);

  return (
    <article className={`message assistant status-${message.status}`} aria-label={t('chat.assistant')} data-message-id={message.id}>
      {message.thinking && (
        <details className="thinking">
          <summary>{streaming && message.content === '' ? t('chat.thinkingNow') : t('chat.thinking')}</summary>
          <div className="thinking-text">{message.thinking}</div>
        </details>
      )}
      {waiting && !searching && (
        <p className="model-loading">
          <span className="spinner" aria-hidden="true" /> {t('chat.loadingModel', { model: message.model ?? '' })}
        </p>
      )}
      {message.content && (
        <div className="message-body" ref={body}>
          <Markdown text={message.content} />
        </div>
      )}
      {streaming && <SearchingLine threadId={message.threadId} messageId={message.id} />}
      {streaming && !waiting && <span className="caret" aria-hidden="true" />}
      <StatusBadge message={message} error={error} canRetry={isLast && !sending} onRetry={() => void retry(message.threadId)} />
      {forgets && forgets.length > 0 && <ForgetNotices notices={forgets} />}
      {((receipt && receipt.length > 0) || (searches && searches.length > 0) || (recalled && recalled.length > 0)) && (
        <MemoryReceipt memories={receipt ?? []} searches={searches ?? []} recalled={recalled ?? []} threadId={message.threadId} />
      )}
      {/* Plain text is the answer as rendered: no Markdown marks, lists and paragraphs as lines. */}
      <MessageMeta message={message} streaming={streaming} plainText={() => body.current?.innerText.trim() ?? message.content} canRegenerate={!sending} />
    </article>
  );
}

function StatusBadge({ message, error, canRetry, onRetry }: { message: Message; error: ErrorInfo | null; canRetry: boolean; onRetry: () => void }) {
  const t = useT();
  if (message.status === 'complete' || message.status === 'streaming') return null;
  if (message.status === 'error') {
    const code = message.errorCode ?? error?.code ?? 'INTERNAL';
    // The core's own words, folded, when this is the failure just seen (they name the host or the model).
    const shown = error && error.code === code ? error : { code, message: '' };
    return (
      <div className="message-status error" role="alert">
        <span className="badge danger">{t('chat.status.error')}</span>
        <span className="message-status-text">
          <CoreError error={shown} />
        </span>
        {canRetry && (
          <button type="button" className="small" onClick={onRetry}>
            <RetryIcon /> {t('common.retry')}
          </button>
        )}
      </div>
    );
  }
  const stopped = message.status === 'stopped';
  return (
    <div className="message-status">
      <span className="badge">{stopped ? t('chat.status.stopped') : t('chat.status.truncated')}</span>
      <span className="muted small">{stopped ? t(STOP_HINTS[message.errorCode ?? ''] ?? 'chat.status.stoppedHint') : t('chat.status.truncatedHint')}</span>
      {/* The same chat.retry as after a failure, so the same name (the 2026-11-28 walk saw two). */}
      {canRetry && (
        <button type="button" className="ghost small" onClick={onRetry}>
          <RetryIcon /> {t('common.retry')}
        </button>
      )}
    </div>
  );
}

/** A copy button that says "Copied" for a moment once the text is on the clipboard. */
function CopyButton({ label, text, children }: { label: string; text: () => string; children?: string }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (await copyText(text())) {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }
  };
  return (
    <button type="button" className="ghost small" onClick={() => void copy()} aria-label={label}>
      <CopyIcon /> {copied ? t('common.copied') : (children ?? t('common.copy'))}
    </button>
  );
}

/**
 * Under an answer: its version switcher, model, tokens and speed, copy, regenerate, context. While the answer is
 * written only the switcher shows, in the same place, so focus put on it (a regenerate) stays when the answer ends.
 */
function MessageMeta({ message, streaming, plainText, canRegenerate }: { message: Message; streaming: boolean; plainText: () => string; canRegenerate: boolean }) {
  const t = useT();
  const regenerate = useChatStore((s) => s.regenerate);
  const setFocus = useChatStore((s) => s.setVersionFocus);
  const language = useLanguage();
  const [showContext, setShowContext] = useState(false);
  const parts: string[] = [];
  if (message.model) parts.push(message.model);
  if (message.promptTokens !== null || message.completionTokens !== null) {
    parts.push(t('chat.meta.tokens', { prompt: message.promptTokens ?? '–', completion: message.completionTokens ?? '–' }));
  }
  if (message.totalDurationMs !== null) parts.push(formatDuration(message.totalDurationMs, language));
  if (message.completionTokens && message.evalDurationMs) {
    parts.push(t('chat.meta.speed', { rate: formatNumber((message.completionTokens * 1000) / message.evalDurationMs, language, 1) }));
  }
  const regenerateHere = () => {
    // The new answer replaces this one (and this button): focus goes to its switcher.
    setFocus(focusAfter(message, (message.version?.count ?? 1) + 1, 'previous'));
    void regenerate(message.threadId, message.id);
  };
  if (streaming) {
    return message.version ? (
      <div className="message-meta">
        <VersionSwitcher message={message} />
      </div>
    ) : null;
  }
  return (
    <div className="message-meta">
      <VersionSwitcher message={message} />
      <span title={formatTime(message.createdAt, language)}>{parts.join(' · ')}</span>
      {message.content && (
        <>
          <CopyButton label={t('chat.copyAnswer')} text={() => message.content} />
          <CopyButton label={t('chat.copyAnswerText')} text={plainText}>
            {t('chat.copyText')}
          </CopyButton>
        </>
      )}
      {message.status === 'complete' && (
        <button type="button" className="ghost small" disabled={!canRegenerate} onClick={regenerateHere} title={t('chat.regenerateLabel')}>
          <RetryIcon /> {t('chat.regenerateVersion')}
        </button>
      )}
      <button type="button" className="ghost small" onClick={() => setShowContext(true)} aria-label={t('context.buttonLabel')}>
        {t('context.button')}
      </button>
      {/* Out of the message list, whose scrolling layer would paint later messages over it. */}
      {showContext && createPortal(<PromptContextDialog messageId={message.id} onClose={() => setShowContext(false)} />, document.body)}
    </div>
  );
}
