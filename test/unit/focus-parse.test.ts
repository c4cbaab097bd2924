import { describe, expect, it } from 'vitest';
import { parseFocusUpdate } from '../../electron/core/focus/focus-parse';

describe('reading the background model’s working-memory update', () => {
  it('reads the plain schema', () => {
    expect(parseFocusUpdate('{"focus": "Planning a trip", "tasks": [{"id": 3, "text": "Book a hotel", "state": "in_progress", "importance": "high"}]}')).toEqual({
      focus: 'Planning a trip',
      tasks: [{ ref: 3, text: 'Book a hotel', state: 'in_progress', importance: 'high' }],
    });
  });

  it('reads an answer that thinks aloud, wraps the JSON in a fence and prose, and uses single quotes and a trailing comma', () => {
    const raw = "<think>The user wants a hotel.</think>Sure! Here is the update:\n```json\n{'focus': 'Trip to Porto', 'tasks': [{'text': 'Book a hotel', 'state': 'open',},],}\n```\nHope this helps.";
    expect(parseFocusUpdate(raw)).toEqual({ focus: 'Trip to Porto', tasks: [{ text: 'Book a hotel', state: 'open' }] });
  });

  it('reads renamed fields, states and priorities in words, a task given as a string, ids written as "T3" or "#4"', () => {
    const raw = '{"current_focus": "Fixing the build", "todos": ["Update the lockfile", {"task_id": "T3", "task": "Run CI", "status": "completed", "priority": 5}, {"ref": "#4", "done": true}]}';
    expect(parseFocusUpdate(raw)).toEqual({
      focus: 'Fixing the build',
      tasks: [{ text: 'Update the lockfile' }, { ref: 3, text: 'Run CI', state: 'done', importance: 'high' }, { ref: 4, state: 'done' }],
    });
  });

  it('reads Chinese answers, Chinese keys and state words included', () => {
    const raw = '好的，更新如下：\n{"焦点": "准备下周的答辩", "任务": [{"任务": "完成幻灯片", "状态": "进行中", "优先级": "高"}, {"内容": "联系导师", "状态": "已完成"}]}';
    expect(parseFocusUpdate(raw)).toEqual({
      focus: '准备下周的答辩',
      tasks: [{ text: '完成幻灯片', state: 'in_progress', importance: 'high' }, { text: '联系导师', state: 'done' }],
    });
  });

  it('skipped parts mean no news: no focus key, an empty focus, no tasks key', () => {
    expect(parseFocusUpdate('{"tasks": []}')).toEqual({ tasks: [] });
    expect(parseFocusUpdate('{"focus": "", "tasks": [{"text": "x y z"}]}')).toEqual({ tasks: [{ text: 'x y z' }] });
    expect(parseFocusUpdate('{"focus": "Only this"}')).toEqual({ focus: 'Only this', tasks: [] });
  });

  it('reads a wrapper object, and a bare list of tasks', () => {
    expect(parseFocusUpdate('{"working_memory": {"focus": "A", "tasks": ["B"]}}')).toEqual({ focus: 'A', tasks: [{ text: 'B' }] });
    expect(parseFocusUpdate('[{"text": "Write tests", "state": "todo"}]')).toEqual({ tasks: [{ text: 'Write tests', state: 'open' }] });
  });

  it('drops the task an answer was cut off in, keeping those before it', () => {
    expect(parseFocusUpdate('{"focus": "Moving", "tasks": [{"text": "Pack books", "state": "open"}, {"text": "Call the la')).toEqual({
      focus: 'Moving',
      tasks: [{ text: 'Pack books', state: 'open' }],
    });
  });

  it('uses the JSON inside a reasoning block that never closed', () => {
    expect(parseFocusUpdate('<think>Maybe {"focus": "draft"} ... final: {"focus": "Final", "tasks": []}')).toEqual({ focus: 'Final', tasks: [] });
  });

  it('an answer without JSON is a retryable LLM_BAD_OUTPUT whose details hold no model text', () => {
    for (const [raw, reason] of [
      ['I think the user is planning a trip.', 'no_json'],
      ['', 'empty'],
      ['<think>hmm</think>', 'only_thinking'],
    ] as const) {
      expect(() => parseFocusUpdate(raw)).toThrow(expect.objectContaining({ code: 'LLM_BAD_OUTPUT', details: { reason } }));
    }
  });
});
