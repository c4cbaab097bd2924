import { useEffect } from 'react';
import { ChatView } from '../chat/ChatView';
import { ErrorBanner } from './ErrorBanner';
import { MemoriesView } from '../memories/MemoriesView';
import { SearchDialog } from '../threads/SearchDialog';
import { SettingsView } from '../settings/SettingsView';
import { StatusBar } from '../status/StatusBar';
import { ThreadSidebar } from './ThreadSidebar';
import { TimelineView } from '../timeline/TimelineView';
import { useShortcuts } from './use-shortcuts';
import { useAppStore } from './app.store';
import { selectTheme, useSettingsStore } from '../settings/settings.store';
import { useLanguage, useT } from '../i18n/use-t';

/** `tokenMissing`: the page was opened without the web host's token, so it cannot reach Mnemo (main.tsx). */
export function App({ tokenMissing }: { tokenMissing: boolean }) {
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

  if (tokenMissing) {
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
