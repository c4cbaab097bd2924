import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyModelUpdate,
  applyUserEdit,
  EMPTY_STATE,
  FINISHED_TTL_MS,
  FOCUS_TTL_MS,
  liveState,
  MAX_FINISHED,
  taskKey,
  TTL_BY_IMPORTANCE,
  userItemsOnly,
  type FocusState,
  type ModelUpdate,
} from '../../electron/core/focus/focus-rules';
import type { FocusEdit } from '../../shared/contract';

const T0 = Date.UTC(2026, 10, 24, 9);
const HOUR = 3_600_000;
const noSecret = () => false;

/** Gives new tasks ids, as the store does when it saves. */
function stored(state: FocusState, nextId = { value: 1 }): FocusState {
  return { ...state, tasks: state.tasks.map((t) => (t.id === null ? { ...t, id: nextId.value++ } : t)) };
}

describe('working memory rules: the model’s update', () => {
  it('sets the focus and adds tasks with an expiry by importance (an hour, a day, a week)', () => {
    const next = applyModelUpdate(
      EMPTY_STATE,
      { focus: 'Planning a trip to Lisbon', tasks: [{ text: 'Book a hotel', importance: 'high' }, { text: 'Check the weather', importance: 'low' }, { text: 'Buy a guide' }] },
      T0,
      noSecret,
    );
    expect(next.focus).toBe('Planning a trip to Lisbon');
    expect(next.focusExpiresAt).toBe(T0 + FOCUS_TTL_MS);
    expect(next.tasks.map((t) => [t.text, t.state, t.expiresAt - T0])).toEqual([
      ['Book a hotel', 'open', TTL_BY_IMPORTANCE.high],
      ['Check the weather', 'open', HOUR],
      ['Buy a guide', 'open', 24 * HOUR],
    ]);
  });

  it('a task named again (by id, or by the same text in other case and spacing) is updated, not doubled', () => {
    const first = stored(applyModelUpdate(EMPTY_STATE, { tasks: [{ text: 'Book a hotel' }] }, T0, noSecret));
    const id = first.tasks[0]!.id!;
    const byText = applyModelUpdate(first, { tasks: [{ text: '  book A   HOTEL ', state: 'in_progress' }] }, T0 + HOUR, noSecret);
    expect(byText.tasks).toHaveLength(1);
    expect(byText.tasks[0]).toMatchObject({ id, state: 'in_progress', updatedAt: T0 + HOUR });
    const byId = applyModelUpdate(byText, { tasks: [{ ref: id, state: 'done' }] }, T0 + 2 * HOUR, noSecret);
    expect(byId.tasks[0]).toMatchObject({ id, state: 'done', finishedAt: T0 + 2 * HOUR, expiresAt: T0 + 2 * HOUR + FINISHED_TTL_MS });
  });

  it("the user's edit wins: the model neither rewrites the user's focus or task text nor moves the user's task back, but may mark it done", () => {
    let state = stored(applyUserEdit(EMPTY_STATE, { kind: 'addTask', text: 'Write the intro' }, T0));
    state = applyUserEdit(state, { kind: 'setFocus', text: 'The thesis, chapter 1' }, T0);
    const id = state.tasks[0]!.id!;
    state = applyUserEdit(state, { kind: 'editTask', taskId: id, state: 'in_progress' }, T0);
    const rewritten = applyModelUpdate(state, { focus: 'Something else', tasks: [{ ref: id, text: 'Write the introduction section', state: 'open' }] }, T0 + HOUR, noSecret);
    expect(rewritten.focus).toBe('The thesis, chapter 1');
    expect(rewritten.tasks[0]).toMatchObject({ text: 'Write the intro', state: 'in_progress', editedByUser: true });
    const done = applyModelUpdate(rewritten, { tasks: [{ ref: id, text: 'Intro written', state: 'done' }] }, T0 + 2 * HOUR, noSecret);
    expect(done.tasks[0]).toMatchObject({ text: 'Write the intro', state: 'done', finishedAt: T0 + 2 * HOUR });
  });

  it('an empty or missing focus from the model changes nothing; the user clearing the focus lets the model write it again', () => {
    let state = applyModelUpdate(EMPTY_STATE, { focus: 'Learning Rust', tasks: [] }, T0, noSecret);
    expect(applyModelUpdate(state, { tasks: [] }, T0 + 1, noSecret).focus).toBe('Learning Rust');
    expect(applyModelUpdate(state, { focus: '   ', tasks: [] }, T0 + 1, noSecret).focus).toBe('Learning Rust');
    state = applyUserEdit(state, { kind: 'setFocus', text: 'Learning Go' }, T0 + 2);
    state = applyUserEdit(state, { kind: 'setFocus', text: '' }, T0 + 3);
    expect(state).toMatchObject({ focus: '', focusEditedByUser: false });
    expect(applyModelUpdate(state, { focus: 'Learning Zig', tasks: [] }, T0 + 4, noSecret).focus).toBe('Learning Zig');
  });

  it('expired items drop out: a low task after about an hour, a normal one after a day, the focus after a week without news', () => {
    const state = stored(applyModelUpdate(EMPTY_STATE, { focus: 'Moving house', tasks: [{ text: 'Call the bank', importance: 'low' }, { text: 'Pack books' }] }, T0, noSecret));
    expect(liveState(state, T0 + HOUR - 1).tasks).toHaveLength(2);
    expect(liveState(state, T0 + HOUR).tasks.map((t) => t.text)).toEqual(['Pack books']);
    expect(liveState(state, T0 + 24 * HOUR).tasks).toEqual([]);
    expect(liveState(state, T0 + FOCUS_TTL_MS - 1).focus).toBe('Moving house');
    expect(liveState(state, T0 + FOCUS_TTL_MS)).toMatchObject({ focus: '', focusExpiresAt: null });
    // News about a task renews its expiry.
    const renewed = applyModelUpdate(state, { tasks: [{ text: 'Pack books', state: 'in_progress' }] }, T0 + 20 * HOUR, noSecret);
    expect(liveState(renewed, T0 + 30 * HOUR).tasks.map((t) => t.text)).toEqual(['Pack books']);
  });

  it(`keeps at most ${MAX_FINISHED} recently finished tasks, the most recent`, () => {
    let state: FocusState = EMPTY_STATE;
    const ids = { value: 1 };
    for (let i = 0; i < 8; i++) {
      state = stored(applyModelUpdate(state, { tasks: [{ text: `Task ${i}` }] }, T0 + i, noSecret), ids);
      state = applyModelUpdate(state, { tasks: [{ text: `Task ${i}`, state: 'done' }] }, T0 + 100 + i, noSecret);
    }
    const done = state.tasks.filter((t) => t.state === 'done').map((t) => t.text);
    expect(done).toHaveLength(MAX_FINISHED);
    expect(done).toEqual(expect.arrayContaining(['Task 7', 'Task 6', 'Task 5', 'Task 4', 'Task 3']));
  });

  it('never writes text that looks like a secret (focus or task)', () => {
    const isSecret = (text: string) => /hunter2/.test(text);
    const next = applyModelUpdate(EMPTY_STATE, { focus: 'Password is hunter2', tasks: [{ text: 'Remember hunter2' }, { text: 'Reset the router' }] }, T0, isSecret);
    expect(next.focus).toBe('');
    expect(next.tasks.map((t) => t.text)).toEqual(['Reset the router']);
  });
});

describe('working memory rules: the user’s edits', () => {
  it('adding a task that exists reopens that task; editing one into another’s text is refused', () => {
    let state = stored(applyModelUpdate(EMPTY_STATE, { tasks: [{ text: 'Buy milk', state: 'done' }, { text: 'Buy bread' }] }, T0, noSecret));
    state = stored(applyUserEdit(state, { kind: 'addTask', text: 'buy milk' }, T0 + 1));
    expect(state.tasks).toHaveLength(2);
    expect(state.tasks.find((t) => t.text === 'buy milk')).toMatchObject({ state: 'open', finishedAt: null, editedByUser: true });
    const bread = state.tasks.find((t) => t.text === 'Buy bread')!;
    expect(() => applyUserEdit(state, { kind: 'editTask', taskId: bread.id!, text: 'Buy Milk' }, T0 + 2)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => applyUserEdit(state, { kind: 'removeTask', taskId: 999 }, T0 + 2)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});

describe('working memory rules: invariants', () => {
  const text = fc.constantFrom('Book a hotel', 'book a HOTEL', 'Pack', 'pack ', '写报告', '写 报告', 'Call Ana', 'call ana!', '');
  const state = fc.constantFrom('open', 'in_progress', 'done') as fc.Arbitrary<'open' | 'in_progress' | 'done'>;
  const importance = fc.constantFrom('low', 'normal', 'high') as fc.Arbitrary<'low' | 'normal' | 'high'>;
  const modelStep = fc.record(
    {
      focus: fc.option(fc.constantFrom('A', 'B', ''), { nil: undefined }),
      tasks: fc.array(fc.record({ ref: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }), text: fc.option(text, { nil: undefined }), state: fc.option(state, { nil: undefined }), importance: fc.option(importance, { nil: undefined }) }, { requiredKeys: [] }), { maxLength: 6 }),
    },
    { requiredKeys: ['tasks'] },
  ) as fc.Arbitrary<ModelUpdate>;
  const userStep = fc.oneof(
    fc.record({ kind: fc.constant('setFocus' as const), text: fc.constantFrom('Mine', '') }),
    fc.record({ kind: fc.constant('addTask' as const), text: text.filter((t) => t.trim() !== '') }),
    fc.record({ kind: fc.constant('editTask' as const), taskId: fc.integer({ min: 1, max: 12 }), text: fc.option(text.filter((t) => t.trim() !== ''), { nil: undefined }), state: fc.option(state, { nil: undefined }) }, { requiredKeys: ['kind', 'taskId'] }),
    fc.record({ kind: fc.constant('removeTask' as const), taskId: fc.integer({ min: 1, max: 12 }) }),
  ) as fc.Arbitrary<FocusEdit>;
  const step = fc.record({ by: fc.constantFrom('model', 'user'), model: modelStep, user: userStep, advance: fc.integer({ min: 0, max: 30 * HOUR }) });

  it('tasks never duplicate, at most five are finished, nothing expired is live, and a user’s task text is never rewritten by the model', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let s: FocusState = EMPTY_STATE;
        let now = T0;
        const ids = { value: 1 };
        for (const st of steps) {
          now += st.advance;
          const before = new Map(s.tasks.filter((t) => t.editedByUser).map((t) => [t.id, t.text]));
          if (st.by === 'model') {
            s = stored(applyModelUpdate(s, st.model, now, noSecret), ids);
            for (const t of s.tasks) if (before.has(t.id)) expect(t.text).toBe(before.get(t.id));
          } else {
            try {
              s = stored(applyUserEdit(s, st.user, now), ids);
            } catch (e) {
              expect(['CONFLICT', 'NOT_FOUND']).toContain((e as { code: string }).code);
              s = liveState(s, now); // a refused edit writes nothing; what is checked below is what a reader sees
            }
          }
          const keys = s.tasks.map((t) => taskKey(t.text));
          expect(new Set(keys).size).toBe(keys.length);
          expect(keys).not.toContain('');
          expect(s.tasks.filter((t) => t.state === 'done').length).toBeLessThanOrEqual(MAX_FINISHED);
          for (const t of s.tasks) expect(t.expiresAt).toBeGreaterThan(now);
          for (const t of s.tasks) expect(t.finishedAt === null).toBe(t.state !== 'done');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('working memory rules: another version of the conversation', () => {
  it('keeps only what the user wrote, edited or ticked; never what the model derived from the messages', () => {
    const model = stored(applyModelUpdate(EMPTY_STATE, { focus: 'Choosing a dog', tasks: [{ text: 'The user prefers big dogs' }, { text: 'Compare breeds' }] }, T0, noSecret));
    const edited = stored(applyUserEdit(applyUserEdit(model, { kind: 'addTask', text: 'Ask the vet' }, T0), { kind: 'editTask', taskId: model.tasks[1]!.id!, state: 'done' }, T0));
    const kept = userItemsOnly(edited);
    expect(kept).toMatchObject({ focus: '', focusEditedByUser: false, focusExpiresAt: null });
    expect(kept.tasks.map((t) => [t.text, t.state])).toEqual([
      ['Compare breeds', 'done'],
      ['Ask the vet', 'open'],
    ]);
    const ownFocus = userItemsOnly(applyUserEdit(edited, { kind: 'setFocus', text: 'A dog for the flat' }, T0));
    expect(ownFocus).toMatchObject({ focus: 'A dog for the flat', focusEditedByUser: true });
    expect(userItemsOnly(model)).toEqual(EMPTY_STATE);
  });
});
