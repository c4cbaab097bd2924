import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createRendererClient } from './rpc';
import { initStores } from './stores/init-stores';
import { useStatusStore } from './stores/status.store';
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
      <App connection={connection} />
    </StrictMode>,
  );
}
