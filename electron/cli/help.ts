/**
 * `mnemo --help` (the groups) and `mnemo <group> --help` (each command with its options), written from the command
 * registry: a command or option added there shows here without a change.
 */
import { GLOBAL_OPTIONS, TOP_LEVEL_OPTIONS, type Options } from './options';
import type { ParsableCommand } from './parse';

interface HelpCommand extends ParsableCommand {
  synopsis: string;
}

/** What each group is for, in the top-level help. A group missing here is still listed, without a description. */
export const GROUPS: Record<string, string> = {
  info: 'where Mnemo keeps its data, versions, and the model server in use',
  chat: 'send a message and stream the reply',
  thread: 'list, show, delete, export and import conversations',
  memory: 'add, list, search, edit, import, export and maintain long-term memories',
  profile: 'what Mnemo knows about you, in one short page: show, edit, refresh',
  models: 'the model server (Ollama or OpenAI-compatible): health and models, pulling one into Ollama',
  embedding: 'semantic search: status, and downloading the local model',
  queue: 'background jobs (learning, summaries, titles)',
  db: 'check, back up and restore the database',
  mcp: 'let other AI apps (LM Studio, Claude Desktop, Jan, Cursor…) use your memory over MCP; which apps may do what',
  settings: 'read and change settings (same rules as the app)',
};

export const ENVIRONMENT = [
  'MNEMO_DATA_DIR    the data folder when --data-dir is not given (--data-dir wins; neither: the platform’s usual place)',
  'MNEMO_MODELS_DIR  the models folder (default: <data>/models)',
  'OLLAMA_HOST       Ollama’s address when the data folder’s settings name none (this shell’s; the app reads its own)',
  'HF_ENDPOINT       a mirror of the Hugging Face Hub for the embedding model',
  'NO_COLOR          no colours; FORCE_COLOR=1 colours even in a pipe',
];

export function optionLines(options: Options): string[] {
  const rows = Object.entries(options).map(([name, o]) => {
    const short = o.type === 'boolean' && o.short ? `-${o.short}, ` : '';
    return [`${short}--${name}${o.type === 'string' ? ` ${o.value}` : ''}`, o.help] as const;
  });
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`);
}

export const EXIT_STATUS = 'exit status: 0 done, 1 the operation failed (one line on stderr), 2 the command line is wrong.';

export function topLevelHelp(commands: readonly HelpCommand[], version: string): string {
  const groups = [...new Set(commands.map((c) => c.words[0]!))];
  const width = Math.max(...groups.map((g) => g.length));
  return [
    `mnemo ${version}: Mnemo's terminal host (the same core as the app, on the same data folder)`,
    '',
    'usage: mnemo <group> <command> [args] [options]',
    '       mnemo <group> --help    the commands of a group and their options',
    '',
    'groups:',
    ...groups.map((g) => `  ${g.padEnd(width)}  ${GROUPS[g] ?? ''}`.trimEnd()),
    '',
    'options:',
    ...optionLines({ ...GLOBAL_OPTIONS, ...TOP_LEVEL_OPTIONS }),
    '',
    'environment:',
    ...ENVIRONMENT.map((l) => `  ${l}`),
    '',
    EXIT_STATUS,
  ].join('\n');
}

/** Help for a group ("memory") or one command ("memory add"); null when the words name neither. */
export function groupHelp(commands: readonly HelpCommand[], words: readonly string[]): string | null {
  const matching = commands.filter((c) => words.every((w, i) => c.words[i] === w));
  // "memory add --help": the command itself, not the longer commands that begin with its words.
  const exact = matching.filter((c) => c.words.length === words.length);
  const shown = exact.length > 0 && words.length > 1 ? exact : matching;
  if (words.length === 0 || shown.length === 0) return null;
  const blocks = shown.map((c) => {
    const options = c.options && Object.keys(c.options).length > 0 ? optionLines(c.options) : [];
    return [`mnemo ${c.synopsis}`, ...options].join('\n');
  });
  const description = words.length === 1 && GROUPS[words[0]!] ? `mnemo ${words[0]}: ${GROUPS[words[0]!]}\n\n` : '';
  return `${description}${blocks.join('\n\n')}\n\nevery command also takes:\n${optionLines(GLOBAL_OPTIONS).join('\n')}`;
}
