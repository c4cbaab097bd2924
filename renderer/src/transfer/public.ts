/** What other features may use of transfer/ besides its store: the import and export panel (settings) and its dialog (memories). */
export { TransferPanel } from './TransferPanel';
export { TransferDialog } from './TransferDialog';
