/** What other features may use of review/ besides its store: the inbox (a Memories tab). */
export { ReviewInbox } from './ReviewInbox';
