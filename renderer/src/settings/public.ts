/** What other features may use of settings/ besides its store and helpers: the episodes switch (the Episodes tab). */
export { EpisodesSwitch } from './InstantSwitch';
