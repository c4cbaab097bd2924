import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createRendererClient } from './rpc';
import { useAppStore } from './stores/app.store';
import './styles.css';

const { client, connection } = createRendererClient((connected) => useAppStore.getState().setConnected(connected));
if (connection.kind !== 'missing-token') void useAppStore.getState().init(client);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App connection={connection} />
    </StrictMode>,
  );
}
