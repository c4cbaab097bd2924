import { useEffect } from 'react';
import { ErrorBanner } from './components/ErrorBanner';
import { StatusBar } from './components/StatusBar';
import { ThreadSidebar } from './components/ThreadSidebar';
import type { Connection } from './rpc';
import { useAppStore } from './stores/app.store';
import { useT } from './use-t';

export function App({ connection }: { connection: Connection }) {
  const t = useT();
  const language = useAppStore((s) => s.language);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

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
      <header className="app-header">
        <h1>{t('app.name')}</h1>
        <span className="muted">{t('app.tagline')}</span>
      </header>
      <ErrorBanner />
      <div className="app-body">
        <ThreadSidebar />
        <main className="chat" aria-label="Chat">
          <p className="empty">{t('chat.placeholder')}</p>
        </main>
      </div>
      <StatusBar />
    </div>
  );
}
