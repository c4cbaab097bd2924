import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createRendererClient } from './app/rpc-client';
import { initStores } from './app/init-stores';
import { useStatusStore } from './status/status.store';
import './styles.css';
import './highlight.css';

const { client, connection } = createRendererClient((connected) => useStatusStore.getState().setConnected(connected));
if (connection.kind !== 'missing-token') initStores(client);
// The Electron bridge has no socket that could drop: it is connected for the life of the window.
if (connection.kind === 'electron') useStatusStore.getState().setConnected(true);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App tokenMissing={connection.kind === 'missing-token'} />
    </StrictMode>,
  );
}
