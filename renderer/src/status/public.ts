/** What other features may use of status/ besides its store and helpers: the model setup (chat), why meaning search is off, the consent to a remote model server (settings, memories). */
export { ModelSetup } from './ModelSetup';
export { EmbeddingOffReason } from './EmbeddingOffReason';
export { RemoteServerConsent } from './RemoteServerConsent';
