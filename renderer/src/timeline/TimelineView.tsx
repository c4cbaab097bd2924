/**
 * What happened, day by day: memories learned, changed, merged, superseded, expired, deleted, restored, purged,
 * threads summarized, other apps' reads over MCP (the app, what it asked, the memories it was given, folded),
 * background work that failed for good (what, why, and Try again: queue.retry). Each
 * event shows the memory's text as it was then (its version at the event), what an update changed besides the text
 * (as the memory's history says it), and leads to the memory or the thread. Above it the activity chart; beside it,
 * on request, what Mnemo believed on a chosen day.
 */
import { isDay } from '../format/day-text';
import { DayField } from '../ui/DayField';
import { useEffect, useId, useMemo, useRef } from 'react';
import type { MemoryCategory, MemoryVersion, TimelineEvent } from '../../../shared/contract';
import { attributionKey, failedJob, groupByDay, KIND_FILTERS, KNOWN_KINDS, kindLabelKey, showsMemory, type KindFilter } from './timeline-format';
import { useMemoryRefsStore } from '../chat/memory-refs.store';
import { selectTimeZone, useSettingsStore } from '../settings/settings.store';
import { showMemory, showMessage } from '../app/navigate';
import { useThreadsStore } from '../threads/threads.store';
import { useTimelineStore, type ActivityBucket } from './timeline.store';
import { InlineField } from '../ui/InlineField';
import { dateFormat } from '../format/format';
import { useLanguage, useT } from '../i18n/use-t';
import { ExternalIcon } from '../ui/icons';
import { fieldChanges } from '../memories/field-changes';
import { ActivityChart } from './ActivityChart';
import { AsOfPanel } from './AsOfPanel';
import { CategoryOptions } from '../memories/public';
import { CoreError } from '../ui/CoreError';
import { mcpReadMemoryIds, mcpReadText, mcpWriteAttribution } from '../connected-apps/mcp-access-words';

export function TimelineView() {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const enter = useTimelineStore((s) => s.enter);
  const events = useTimelineStore((s) => s.events);
  const hasMore = useTimelineStore((s) => s.hasMore);
  const loading = useTimelineStore((s) => s.loading);
  const error = useTimelineStore((s) => s.error);
  const kind = useTimelineStore((s) => s.kind);
  const category = useTimelineStore((s) => s.category);
  const jumpedTo = useTimelineStore((s) => s.jumpedTo);
  const asOfDate = useTimelineStore((s) => s.asOfDate);
  const setKind = useTimelineStore((s) => s.setKind);
  const setCategory = useTimelineStore((s) => s.setCategory);
  const loadMore = useTimelineStore((s) => s.loadMore);
  const jumpTo = useTimelineStore((s) => s.jumpTo);
  const backToLatest = useTimelineStore((s) => s.backToLatest);
  const setAsOfDate = useTimelineStore((s) => s.setAsOfDate);
  const stream = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  // The user's days (settings, else the machine's zone), the days the core counts "today" in.
  const timeZone = useSettingsStore(selectTimeZone);
  const groups = useMemo(() => groupByDay(events, timeZone), [events, timeZone]);

  useEffect(() => enter(), [enter]);

  // Older pages load as the end of the stream comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore();
    }, { root: stream.current, rootMargin: '200px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, [loadMore, events.length]);

  useEffect(() => {
    if (jumpedTo && stream.current) stream.current.scrollTop = 0;
  }, [jumpedTo]);

  /** A day on the chart: shown where it is if loaded, else the stream restarts from the end of that day. */
  const pick = (bucket: ActivityBucket, end: number) => {
    const oldest = events[events.length - 1];
    const loaded = oldest !== undefined && (oldest.createdAt < bucket.start || !hasMore) && (jumpedTo === null || end <= jumpedTo.end);
    const target = loaded ? events.find((e) => e.createdAt < end && e.createdAt >= bucket.start) : undefined;
    if (target) {
      const el = stream.current?.querySelector<HTMLElement>(`[data-event-id="${target.id}"]`);
      // The event stops below its day's sticky heading (scroll-margin-top in styles.css); focus must not scroll
      // again, or it would undo that and put the event back under the heading.
      el?.scrollIntoView({ block: 'start' });
      el?.classList.add('flash');
      el?.focus({ preventScroll: true });
      return;
    }
    jumpTo(bucket.start, end);
  };

  return (
    <section className="timeline-view" aria-labelledby={headingId}>
      <header className="view-head">
        <h2 id={headingId}>{t('timeline.title')}</h2>
        <div className="view-head-tools">
          <InlineField label={t('timeline.filter.kind')}>
            {(id) => (
              <select id={id} value={kind} onChange={(e) => setKind(e.target.value as KindFilter)}>
                {(Object.keys(KIND_FILTERS) as KindFilter[]).map((k) => (
                  <option key={k} value={k}>
                    {t(`timeline.filter.kind.${k}`)}
                  </option>
                ))}
              </select>
            )}
          </InlineField>
          <InlineField label={t('timeline.filter.category')}>
            {(id) => (
              <select id={id} value={category} onChange={(e) => setCategory(e.target.value as MemoryCategory | 'all')}>
                <option value="all">{t('timeline.filter.allCategories')}</option>
                <CategoryOptions />
              </select>
            )}
          </InlineField>
          <InlineField label={t('timeline.asOf')}>
            {(id) => (
              <DayField id={id} value={asOfDate} onChange={(value) => (value === '' || isDay(value)) && setAsOfDate(value)} />
            )}
          </InlineField>
        </div>
      </header>
      <div className={asOfDate ? 'timeline-layout with-panel' : 'timeline-layout'}>
        <div className="timeline-main">
          <ActivityChart onPick={pick} />
          {jumpedTo && (
            <p className="notice small">
              <span className="grow">
                {t('timeline.showingUpTo', { date: dateFormat(language, { dateStyle: 'medium', timeZone }).format(jumpedTo.start) })}
              </span>
              <button type="button" className="small" onClick={backToLatest}>
                {t('timeline.backToLatest')}
              </button>
            </p>
          )}
          <div ref={stream} className="timeline-stream" role="region" aria-label={t('timeline.streamLabel')} aria-busy={loading}>
            {error && (
              <div className="field-error" role="alert">
                <CoreError error={error} />
              </div>
            )}
            {!loading && events.length === 0 && !error && <p className="list-empty muted">{kind === 'all' && category === 'all' ? t('timeline.empty') : t('timeline.emptyFiltered')}</p>}
            {groups.map((group) => (
              <section key={group.day} className="tl-day" aria-label={dayLabel(group.day, language, timeZone)}>
                <h3 className="tl-day-head">{dayLabel(group.day, language, timeZone)}</h3>
                <ol className="tl-events">
                  {group.events.map((event) => (
                    <EventItem key={event.id} event={event} />
                  ))}
                </ol>
              </section>
            ))}
            <div ref={sentinel} className="tl-end">
              {hasMore ? (
                <button type="button" className="ghost" disabled={loading} onClick={() => void loadMore()}>
                  {loading ? t('common.loading') : t('timeline.older')}
                </button>
              ) : (
                events.length > 0 && <span className="muted small">{t('timeline.start')}</span>
              )}
            </div>
          </div>
        </div>
        {asOfDate && <AsOfPanel />}
      </div>
    </section>
  );
}

function dayLabel(day: number, language: string, timeZone: string): string {
  return dateFormat(language, { dateStyle: 'full', timeZone }).format(day);
}

function EventItem({ event }: { event: TimelineEvent }) {
  const t = useT();
  const language = useLanguage();
  const memory = useMemoryRefsStore((s) => (event.memoryId === null ? undefined : s.byId[event.memoryId]));
  const then = useTimelineStore((s) => s.versions[event.id]);
  const thread = useThreadsStore((s) => (event.threadId === null ? undefined : s.threads.find((th) => th.id === event.threadId)));
  const attribution = attributionKey(event.kind, event.data.origin, event.data);
  // An app's write (MCP) is recorded as learned or proposed from a conversation: the app is who wrote it.
  const byApp = mcpWriteAttribution(event, t);
  const undoSummary = useTimelineStore((s) => s.undoSummary);
  const textId = `tl-${event.id}`;
  return (
    <li className={`tl-event kind-${event.kind}`} data-event-id={event.id} tabIndex={-1} aria-labelledby={textId}>
      <time className="tl-time muted small" dateTime={new Date(event.createdAt).toISOString()}>
        {dateFormat(language, { timeStyle: 'short' }).format(event.createdAt)}
      </time>
      <span className={`tl-kind kind-${event.kind}`}>{t(kindLabelKey(event.kind))}</span>
      <span id={textId} className="tl-text">
        <EventText event={event} memoryText={then ? then.version.content : then === null ? (memory ? memory.content : memory) : undefined} threadTitle={thread?.title} />
        {event.kind === 'mcp_read' && <GivenMemories event={event} />}
        <span className="tl-meta muted small">
          {then?.previous && event.kind !== 'deleted' && event.kind !== 'restored' && <Changes before={then.previous} after={then.version} />}
          {event.category && (event.category === 'knowledge' || event.category === 'preference' || event.category === 'project' || event.category === 'skill') && (
            <span className={`cat cat-${event.category}`}>{t(`category.${event.category}`)}</span>
          )}
          {byApp ? <span>{byApp}</span> : attribution && <span>{t(attribution)}</span>}
          {event.kind === 'consolidated' && typeof event.data.summarised === 'number' && <span>{t('timeline.consolidatedCount', { count: event.data.summarised })}</span>}
          {memory && memory.status !== 'active' && event.kind !== 'deleted' && <span>{t('timeline.nowStatus', { status: t(`status.memory.${memory.status}`) })}</span>}
        </span>
      </span>
      <span className="tl-actions">
        {memory && (
          <button type="button" className="ghost small" aria-describedby={textId} onClick={() => showMemory(memory.id)}>
            {t('timeline.openMemory')}
          </button>
        )}
        {event.kind === 'consolidated' && memory?.status === 'active' && (
          <button type="button" className="ghost small" aria-describedby={textId} onClick={() => void undoSummary(memory.id)}>
            {t('timeline.undoSummary')}
          </button>
        )}
        <RetryJob event={event} textId={textId} />
        {thread && (
          <button type="button" className="ghost small" aria-describedby={textId} onClick={() => showMessage(thread.id, event.messageId)}>
            <ExternalIcon /> {t('timeline.openThread')}
          </button>
        )}
      </span>
    </li>
  );
}

/** Try again for a job that failed for good; then what became of it (queued again, or why the core refused). */
function RetryJob({ event, textId }: { event: TimelineEvent; textId: string }) {
  const t = useT();
  const failed = failedJob(event);
  const retry = useTimelineStore((s) => s.retries[event.id]);
  const retryJob = useTimelineStore((s) => s.retryJob);
  if (!failed || failed.jobId === null) return null;
  const jobId = failed.jobId;
  return (
    <>
      <span role="status" className="small muted">
        {retry === 'queued' && t('timeline.failed.retried')}
      </span>
      {retry !== undefined && retry !== 'queued' && (
        <span className="field-error small" role="alert">
          <CoreError error={retry} />
        </span>
      )}
      {retry !== 'queued' && (
        <button type="button" className="ghost small" aria-describedby={textId} onClick={() => void retryJob(event.id, jobId)}>
          {t('timeline.failed.retry')}
        </button>
      )}
    </>
  );
}

/** The memories an app was given in one read, folded: their text is read when the user opens the list. */
function GivenMemories({ event }: { event: TimelineEvent }) {
  const t = useT();
  const ids = mcpReadMemoryIds(event);
  const want = useMemoryRefsStore((s) => s.want);
  const byId = useMemoryRefsStore((s) => s.byId);
  if (ids.length === 0) return null;
  return (
    <details className="tl-given" onToggle={(e) => e.currentTarget.open && want(ids)}>
      <summary className="small">{t('timeline.mcp.showMemories', { count: ids.length })}</summary>
      <ul className="tl-given-list">
        {ids.map((id) => {
          const memory = byId[id];
          return (
            <li key={id} className="small">
              {memory === undefined ? (
                <span className="muted">{t('common.loading')}</span>
              ) : memory === null ? (
                <span className="muted">{t('timeline.memoryPurged', { id })}</span>
              ) : (
                <>
                  <span id={`tl-${event.id}-m${id}`} className="grow">
                    {memory.content}
                  </span>
                  <button type="button" className="ghost small" aria-describedby={`tl-${event.id}-m${id}`} onClick={() => showMemory(id)}>
                    {t('timeline.openMemory')}
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

/** What an update changed besides the text ("pinned", "category Skill → Project"), as the memory's history says it. */
function Changes({ before, after }: { before: MemoryVersion; after: MemoryVersion }) {
  const t = useT();
  const language = useLanguage();
  const changes = fieldChanges(before, after, t, language);
  return changes.length > 0 ? <span className="tl-changes">{changes.join(' · ')}</span> : null;
}

function EventText({ event, memoryText, threadTitle }: { event: TimelineEvent; memoryText: string | null | undefined; threadTitle: string | undefined }) {
  const t = useT();
  const n = (key: string) => (typeof event.data[key] === 'number' ? (event.data[key] as number) : 0);
  // A purge keeps the memory's id only in its own event's data; its earlier events no longer point at it.
  const id = event.memoryId ?? (n('memoryId') || null);
  const gone = <span className="tl-content muted">{id === null ? t('timeline.memoryPurgedNoId') : t('timeline.memoryPurged', { id })}</span>;
  const failed = failedJob(event);
  if (failed) return <span className="tl-content">{t('timeline.failed.sentence', { what: t(failed.what), why: t(failed.why) })}</span>;
  // Episodes: the thread they are about (their text is in Memories › Episodes; the timeline keeps ids only).
  if (event.kind === 'thread_summarized' || event.kind.startsWith('episode_')) return <span className="tl-content">{threadTitle === undefined ? t('timeline.threadGone') : threadTitle || t('threads.untitled')}</span>;
  if (event.kind === 'import_completed') return <span className="tl-content">{t('timeline.importSummary', { count: n('written') })}</span>;
  if (event.kind === 'maintained') return <span className="tl-content">{t('timeline.maintainSummary', { merged: n('merged'), decayed: n('decayed'), trashed: n('trashedForCap'), purged: n('purged') })}</span>;
  if (event.kind === 'mcp_read') return <span className="tl-content">{mcpReadText(event, t)}</span>;
  // A kind from a newer core, about no memory: its label says what happened; it is not a purged memory.
  if (event.memoryId === null && !(KNOWN_KINDS as readonly string[]).includes(event.kind)) return null;
  if (!showsMemory(event)) return gone;
  if (memoryText === undefined) return <span className="tl-content muted">{t('common.loading')}</span>;
  if (memoryText === null) return gone;
  return <span className="tl-content">{memoryText}</span>;
}
