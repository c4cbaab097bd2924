/**
 * The background model's working-memory update, read from what small models actually answer: reasoning first
 * (removed by the one think rule, think-splitter.ts; an unclosed block's last object is used when the answer has
 * none), JSON in fences or prose, single quotes and trailing commas (lenient-json.ts, the extraction's reader),
 * renamed fields ("current_focus", "todos", "status", "priority", Chinese keys), a task as a bare string, states and
 * priorities in words of either language, and an answer cut off (the task being written when it stopped is dropped).
 *
 * Missing parts mean "no news" (ModelUpdate): a model that skips the focus or the tasks changes nothing there.
 * No JSON object at all is LLM_BAD_OUTPUT (retryable), with a reason that holds no model text.
 */
import type { FocusImportance, FocusTaskState } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { isRecord, pick } from '../extraction/candidate-normalise';
import { readLenientJson } from '../extraction/lenient-json';
import { splitThink } from '../llm/think-splitter';
import type { ModelUpdate } from './focus-rules';

const FOCUS_KEYS = ['focus', 'current_focus', 'currentFocus', 'focus_text', 'topic', 'goal', 'current_goal', 'current_topic', '焦点', '当前焦点', '重点', '当前重点', '目标'];
const TASKS_KEYS = ['tasks', 'active_tasks', 'activeTasks', 'task_list', 'taskList', 'todos', 'todo', 'to_do', 'items', 'updates', 'changes', '任务', '任务列表', '待办'];
const TASK_TEXT_KEYS = ['text', 'task', 'title', 'description', 'content', 'name', 'summary', '任务', '内容', '描述'];
const TASK_ID_KEYS = ['id', 'ref', 'task_id', 'taskId', 'number', 'index', '编号'];
const TASK_STATE_KEYS = ['state', 'status', 'progress', 'stage', '状态'];
const TASK_IMPORTANCE_KEYS = ['importance', 'priority', 'weight', '重要性', '优先级'];

/** Answers longer than this are read only this far. */
const MAX_RAW_CHARS = 50_000;
const MAX_JSON_STARTS = 32;

const STATE_WORDS: Array<[RegExp, FocusTaskState]> = [
  [/^(done|complete|completed|finished|closed|resolved|solved|cancel+ed|dropped|已完成|完成|已解决|结束|已结束|取消|已取消)$/u, 'done'],
  [/^(in[ _-]?progress|ongoing|doing|started|working|active|wip|current|进行中|正在进行|处理中|已开始)$/u, 'in_progress'],
  [/^(open|todo|to[ _-]?do|pending|new|not[ _-]?started|planned|waiting|blocked|待办|未开始|待处理|计划中|打开)$/u, 'open'],
];

function readState(v: unknown, record: Record<string, unknown>): FocusTaskState | undefined {
  if (typeof v === 'string') {
    const word = v.trim().toLowerCase();
    for (const [re, state] of STATE_WORDS) if (re.test(word)) return state;
    return undefined;
  }
  const done = pick(record, ['done', 'completed', 'finished', '完成']);
  if (typeof done === 'boolean') return done ? 'done' : 'open';
  return undefined;
}

function readImportance(v: unknown): FocusImportance | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    // 0..1 as a share, else a 1..5 or 1..10 scale.
    const share = v <= 1 ? v : v <= 5 ? v / 5 : v / 10;
    return share >= 0.7 ? 'high' : share < 0.35 ? 'low' : 'normal';
  }
  if (typeof v !== 'string') return undefined;
  const word = v.trim().toLowerCase();
  if (/^(high|urgent|critical|important|top|高|紧急|重要)$/u.test(word)) return 'high';
  if (/^(low|minor|trivial|someday|低|次要)$/u.test(word)) return 'low';
  if (/^(normal|medium|mid|moderate|default|中|一般|普通)$/u.test(word)) return 'normal';
  const n = Number(word);
  return Number.isFinite(n) && word !== '' ? readImportance(n) : undefined;
}

function readRef(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'string') {
    const m = /^\s*(?:t|task|#|任务)?\s*#?\s*(\d{1,12})\s*$/iu.exec(v);
    if (m) return Number(m[1]);
  }
  return undefined;
}

function readTask(item: unknown, incomplete: WeakSet<object>): ModelUpdate['tasks'][number] | null {
  if (typeof item === 'string') return item.trim() ? { text: item.trim() } : null;
  if (!isRecord(item) || incomplete.has(item)) return null;
  const text = pick(item, TASK_TEXT_KEYS);
  const ref = readRef(pick(item, TASK_ID_KEYS));
  const task: ModelUpdate['tasks'][number] = {};
  if (typeof text === 'string' && text.trim()) task.text = text.trim();
  if (ref !== undefined) task.ref = ref;
  const state = readState(pick(item, TASK_STATE_KEYS), item);
  if (state) task.state = state;
  const importance = readImportance(pick(item, TASK_IMPORTANCE_KEYS));
  if (importance) task.importance = importance;
  return task.text !== undefined || task.ref !== undefined ? task : null;
}

/** The update inside one parsed value, or null when the value does not look like one. */
function readUpdate(value: unknown, incomplete: WeakSet<object>, depth = 0): ModelUpdate | null {
  if (depth > 4) return null;
  if (Array.isArray(value)) {
    const tasks = value.map((t) => readTask(t, incomplete)).filter((t) => t !== null);
    return tasks.length > 0 || value.length === 0 ? { tasks } : null;
  }
  if (!isRecord(value)) return null;
  const focus = pick(value, FOCUS_KEYS);
  const tasks = pick(value, TASKS_KEYS);
  if (focus === undefined && tasks === undefined) {
    // A wrapper ({"working_memory": {...}}, {"update": {...}}): its one object value.
    const inner = Object.values(value).filter((v) => isRecord(v));
    return inner.length === 1 ? readUpdate(inner[0], incomplete, depth + 1) : null;
  }
  const update: ModelUpdate = { tasks: [] };
  if (typeof focus === 'string' && focus.trim()) update.focus = focus.trim();
  if (Array.isArray(tasks)) {
    for (const t of tasks) {
      const task = readTask(t, incomplete);
      if (task) update.tasks.push(task);
    }
  } else if (isRecord(tasks) || typeof tasks === 'string') {
    const task = readTask(tasks, incomplete);
    if (task) update.tasks.push(task);
  }
  return update;
}

function findUpdate(text: string, prefer: 'first' | 'last'): ModelUpdate | null {
  let found: ModelUpdate | null = null;
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_JSON_STARTS; i++) {
    if (text[i] !== '{' && text[i] !== '[') continue;
    tried++;
    const read = readLenientJson(text, i);
    const update = readUpdate(read.value, read.incomplete);
    if (!update) continue;
    found = update;
    if (prefer === 'first') return found;
    i = Math.max(i, read.end - 1);
  }
  return found;
}

export function parseFocusUpdate(raw: string): ModelUpdate {
  const split = splitThink(raw.length > MAX_RAW_CHARS ? raw.slice(0, MAX_RAW_CHARS) : raw);
  const update = findUpdate(split.content, 'first') ?? (split.unclosed ? findUpdate(split.unclosed, 'last') : null);
  if (update) return update;
  const reason = split.content.trim() === '' ? (split.thinking.trim() ? 'only_thinking' : 'empty') : 'no_json';
  throw new MnemoError('LLM_BAD_OUTPUT', 'The background model did not return a working-memory update as JSON; it will be retried.', { details: { reason } });
}
