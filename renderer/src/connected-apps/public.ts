/** What other features may use of connected-apps/ besides its store and helpers: its settings section. */
export { ConnectedAppsSection } from './ConnectedAppsSection';
