import type { View } from '../app/app.store';

/** The schedule's radio group in Settings › When Mnemo learns. */
export const LEARNING_SCHEDULE_GROUP_ID = 'settings-learning-schedule';

/** Goes to Settings and puts the keyboard on the chosen schedule (the status bar's "Change" while learning is paused). */
export function openLearningSettings(setView: (view: View) => void): void {
  setView('settings');
  let frames = 0;
  const land = () => {
    const group = document.getElementById(LEARNING_SCHEDULE_GROUP_ID);
    if (!group) {
      // Settings renders its sections once the settings are loaded: a few frames at most.
      if (++frames < 30) requestAnimationFrame(land);
      return;
    }
    group.scrollIntoView({ block: 'center' });
    group.querySelector<HTMLInputElement>('input:checked')?.focus();
  };
  requestAnimationFrame(land);
}
