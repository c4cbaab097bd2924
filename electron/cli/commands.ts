/**
 * The terminal host's commands: each maps words to one contract operation and a human-readable rendering.
 * `--json` prints the operation's value as JSON instead.
 */
import type { Client } from '../../shared/client';
import type { ErrorInfo } from '../../shared/errors';
import { dbCommands } from './commands/db.commands';

export type CliOutput = { ok: true; value: unknown; text: string } | { ok: false; error: ErrorInfo };

export interface CliCommand {
  words: string[];
  synopsis: string;
  run(ctx: { client: Client; args: string[]; flags: Record<string, string> }): Promise<CliOutput>;
}

export const commands: CliCommand[] = [...dbCommands];

export function findCommand(words: string[]): { command: CliCommand; args: string[] } | null {
  let best: CliCommand | null = null;
  for (const command of commands) {
    if (command.words.every((w, i) => words[i] === w) && (!best || command.words.length > best.words.length)) best = command;
  }
  return best ? { command: best, args: words.slice(best.words.length) } : null;
}

export function usage(): string {
  return [
    'usage: npm run -s cli -- <group> <command> [args] [--json] [--data-dir DIR]',
    '',
    ...commands.map((c) => `  ${c.synopsis}`),
    '',
    'Environment: MNEMO_DATA_DIR (data folder), OLLAMA_HOST, MNEMO_MODELS_DIR.',
  ].join('\n');
}
