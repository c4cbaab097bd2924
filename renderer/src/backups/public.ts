/** What other features may use of backups/ besides its store: its settings section. */
export { BackupsSection } from './BackupsSection';
