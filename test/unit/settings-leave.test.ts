/** Leaving Settings with unsaved edits asks first; the answer decides, and nothing else is held up. */
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../renderer/src/app/app.store';

describe('leaving Settings with unsaved edits', () => {
  beforeEach(() => useAppStore.setState({ view: 'settings', settingsUnsaved: false, pendingView: null }));

  it('without edits, leaves at once', () => {
    useAppStore.getState().setView('memories');
    expect(useAppStore.getState()).toMatchObject({ view: 'memories', pendingView: null });
  });

  it('with edits, stays and asks; staying keeps the edits, leaving goes where the user asked', () => {
    const app = useAppStore.getState();
    app.setSettingsUnsaved(true);
    app.setView('timeline');
    expect(useAppStore.getState()).toMatchObject({ view: 'settings', pendingView: 'timeline' });
    app.leaveSettings(false);
    expect(useAppStore.getState()).toMatchObject({ view: 'settings', pendingView: null, settingsUnsaved: true });
    app.setView('chat');
    app.leaveSettings(true);
    expect(useAppStore.getState()).toMatchObject({ view: 'chat', pendingView: null, settingsUnsaved: false });
  });

  it('going to Settings itself never asks', () => {
    useAppStore.getState().setSettingsUnsaved(true);
    useAppStore.getState().setView('settings');
    expect(useAppStore.getState()).toMatchObject({ view: 'settings', pendingView: null });
  });
});
