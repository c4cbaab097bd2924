/** The two Electron IPC channels. Operation names travel inside them and are checked against the contract. */
export const IPC_INVOKE_CHANNEL = 'mnemo:invoke';
export const IPC_EVENT_CHANNEL = 'mnemo:event';
