import { useEffect } from 'react';
import { ChatView } from './components/ChatView';
import { ErrorBanner } from './components/ErrorBanner';
import { MemoriesView } from './components/memories/MemoriesView';
import { SearchDialog } from './components/SearchDialog';
import { SettingsView } from './components/SettingsView';
import { StatusBar } from './components/StatusBar';
import { ThreadSidebar } from './components/ThreadSidebar';
import { TimelineView } from './components/timeline/TimelineView';
import { useShortcuts } from './components/use-shortcuts';
import type { Connection } from './rpc';
import { useAppStore } from './stores/app.store';
import { selectTheme, useSettingsStore } from './stores/settings.store';
import { useLanguage, useT } from './use-t';

export function App({ connection }: { connection: Connection }) {
  const t = useT();
  const language = useLanguage();
  const theme = useSettingsStore(selectTheme);
  const view = useAppStore((s) => s.view);
  const searchOpen = useAppStore((s) => s.searchOpen);
  useShortcuts();

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('app.name');
  }, [language, t]);
  useEffect(() => {
    // A theme applies at once. Otherwise a button's background transition fades from the old theme's colour while its
    // text already has the new one's: for a moment a hovered button in the dark theme is light text on light grey.
    const root = document.documentElement;
    root.classList.add('theme-switching');
    root.dataset.theme = theme;
    let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => root.classList.remove('theme-switching'))));
    return () => {
      cancelAnimationFrame(frame);
      root.classList.remove('theme-switching');
    };
  }, [theme]);

  if (connection.kind === 'missing-token') {
    return (
      <main className="fatal" role="alert">
        <h1>{t('app.name')}</h1>
        <p>{t('error.missingToken')}</p>
      </main>
    );
  }
  return (
    <div className="app-shell">
      {/* The first Tab stop: past the sidebar (threads, search, navigation) straight to the screen's content. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        {t('app.skipToContent')}
      </button>
      <ErrorBanner />
      <div className="app-body">
        <ThreadSidebar />
        <main className="main" id="main" tabIndex={-1}>
          {view === 'settings' ? <SettingsView /> : view === 'memories' ? <MemoriesView /> : view === 'timeline' ? <TimelineView /> : <ChatView />}
        </main>
      </div>
      <StatusBar />
      {searchOpen && <SearchDialog />}
    </div>
  );
}
