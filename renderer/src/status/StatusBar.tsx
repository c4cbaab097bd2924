/**
 * One line at the bottom: the connection to Mnemo only while it is lost, the model server and the chat model (and its machine when that is another one), background work, semantic search, version
 * (database version in words and data folder on hover). It is not a live region (it changes with every queue tick and download percent): what is worth
 * hearing is said once, in a separate polite one (status-announcements.ts).
 */
import { useEffect, useState } from 'react';
import { useLanguage, useT } from '../i18n/use-t';
import { formatNumber } from '../format/format';
import { modelServerLine, remoteServerLine } from './model-server-line';
import { announcementText, statusAnnouncements, statusFacts, type Announcement } from './status-announcements';
import { useSettingsStore } from '../settings/settings.store';
import { useStatusStore, type Progress, type QueueState } from './status.store';
import { useAppStore } from '../app/app.store';
import { queueLine, shownHold } from './queue-line';
import { openLearningSettings } from '../settings/open-learning-settings';
import { embeddingOffSentence } from './embedding-reason';
import { schemaLabel } from './schema-label';

export function StatusBar() {
  const t = useT();
  const language = useLanguage();
  const connected = useStatusStore((s) => s.connected);
  const info = useStatusStore((s) => s.info);
  const models = useStatusStore((s) => s.models);
  const queue = useStatusStore((s) => s.queue);
  const embedding = useStatusStore((s) => s.embedding);
  const download = useStatusStore((s) => s.embeddingDownload);
  const pulls = useStatusStore((s) => s.pulls);
  const reindex = useStatusStore((s) => s.reindex);
  const importing = useStatusStore((s) => s.importing);
  const chatModel = useSettingsStore((s) => s.settings?.chatModel ?? null);
  const provider = useSettingsStore((s) => s.settings?.llmProvider ?? 'ollama');
  const activePull = Object.entries(pulls).find(([, p]) => !p.done);
  const server = modelServerLine(models, provider, chatModel);
  const remote = remoteServerLine(models?.remote);
  const offSentence = embedding ? embeddingOffSentence(embedding, models?.api === 'openai', 'elsewhere', t) : null;

  return (
    <footer className="status-bar" aria-label={t('status.label')}>
      <Announcer />
      {/* The page's link to Mnemo is named only while it is down: a green "Connected" read as the model's state. */}
      {!connected && (
        <span className="status-item">
          <span className="dot warn" aria-hidden="true" />
          {t('status.disconnected')}
        </span>
      )}
      <span className="status-item" title={models?.error?.message ?? models?.host ?? ''}>
        <span className={!models ? 'dot' : models.reachable ? (models.chatModel.installed ? 'dot ok' : 'dot warn') : 'dot bad'} aria-hidden="true" />
        {t(server.key, server.params)}
      </span>
      {remote && models?.remote && (
        <span className="status-item remote-server" title={models.remote.address}>
          <span className={models.remote.confirmed ? 'dot warn' : 'dot bad'} aria-hidden="true" />
          {t(remote.key, remote.params)}
        </span>
      )}
      {activePull && (
        <span className="status-item">
          {t('status.pulling', { model: activePull[0], percent: activePull[1].percent === null ? '…' : `${Math.floor(activePull[1].percent)}%` })}
          <MiniProgress percent={activePull[1].percent ?? 0} />
        </span>
      )}
      {reindex && <CountProgress textKey="status.reindexing" progress={reindex} />}
      {importing && <CountProgress textKey="status.importing" progress={importing} />}
      {queue && <QueueItem queue={queue} />}
      {embedding && (
        <span className="status-item" title={embedding.state === 'unavailable' && offSentence ? t(offSentence.key, offSentence.params) : (embedding.modelId ?? '')}>
          {embedding.state === 'ready'
            ? t('status.embeddingReady')
            : embedding.state === 'loading'
              ? t('status.embeddingLoading')
              : embedding.state === 'downloading'
                ? t('status.embeddingDownloading', { percent: download ? `${formatNumber(download.percent, language, 0)}%` : '…' })
                : t('status.embeddingOff')}
          {embedding.state === 'downloading' && <MiniProgress percent={download?.percent ?? 0} />}
        </span>
      )}
      <span className="status-spacer" />
      {info && (
        <>
          {/* The database version and data folder are for support, not for reading: they wait on hover, in words. */}
          <span className="status-item muted" title={t('status.versionHint', { schema: schemaLabel(info.schemaVersion, t), dataDir: info.dataDir })}>
            Mnemo {info.version}
          </span>
        </>
      )}
    </footer>
  );
}

/**
 * The polite live region: the latest announcement, in a new node each time so that the same words said twice (the
 * server lost again) are read twice. Follows the store itself, not renders, so no change between two renders is missed.
 */
function Announcer() {
  const t = useT();
  const [said, setSaid] = useState<{ n: number; items: Announcement[] }>({ n: 0, items: [] });
  useEffect(() => {
    const provider = () => useSettingsStore.getState().settings?.llmProvider ?? 'ollama';
    let before = statusFacts(useStatusStore.getState(), provider());
    return useStatusStore.subscribe((state) => {
      const { items, seen } = statusAnnouncements(before, statusFacts(state, provider()));
      before = seen;
      if (items.length > 0) setSaid((s) => ({ n: s.n + 1, items }));
    });
  }, []);
  return (
    <div className="visually-hidden" role="status" aria-live="polite">
      {said.items.length > 0 && <span key={said.n}>{said.items.map((a) => announcementText(a, t)).join(' ')}</span>}
    </div>
  );
}

/** "Importing 64 / 300" and its bar. */
function CountProgress({ textKey, progress }: { textKey: 'status.reindexing' | 'status.importing'; progress: Progress }) {
  const t = useT();
  const language = useLanguage();
  return (
    <span className="status-item">
      {t(textKey, { done: formatNumber(progress.done, language, 0), total: formatNumber(progress.total, language, 0) })}
      <MiniProgress percent={(100 * progress.done) / progress.total} />
    </span>
  );
}

/** A small bar beside a text that already says the figure (hidden from screen readers, which read the text). */
function MiniProgress({ percent }: { percent: number }) {
  return (
    <span className="mini-progress" aria-hidden="true">
      <span style={{ width: `${Math.max(0, Math.min(100, percent))}%` }} />
    </span>
  );
}

/**
 * Background work, or why it waits. Paused by the user's own schedule, the line offers the way back: the Settings
 * choice it came from (the bar is not a live region, so the button is found by Tab like any other).
 */
function QueueItem({ queue }: { queue: QueueState }) {
  const t = useT();
  const setView = useAppStore((s) => s.setView);
  const { head, parts } = queueLine(queue);
  const text = parts.map((p) => t(p.key, p.params)).join(' · ');
  return (
    <span className="status-item" title={queue.paused?.message ?? ''}>
      {head ? `${t(head.key)}: ${text}` : text}
      {!queue.paused && shownHold(queue) === 'paused' && (
        <button type="button" className="ghost small status-action" title={t('status.learning.changeHint')} aria-label={`${t('status.learning.change')}: ${t('status.learning.changeHint')}`} onClick={() => openLearningSettings(setView)}>
          {t('status.learning.change')}
        </button>
      )}
    </span>
  );
}
