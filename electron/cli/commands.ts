/**
 * The terminal host's commands: each maps words to one contract operation and a human-readable rendering.
 * `--json` prints the operation's value as JSON instead.
 */
import type { Client } from '../../shared/client';
import type { DbCheck } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';

export type CliOutput = { ok: true; value: unknown; text: string } | { ok: false; error: ErrorInfo };

export interface CliCommand {
  words: string[];
  synopsis: string;
  run(ctx: { client: Client; args: string[]; flags: Record<string, string> }): Promise<CliOutput>;
}

export const commands: CliCommand[] = [
  {
    words: ['db', 'check'],
    synopsis: 'db check                 integrity, journal mode, synchronous, foreign keys, schema version',
    async run({ client }) {
      const r = await client.call('db.check', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatDbCheck(r.value) };
    },
  },
];

function formatDbCheck(c: DbCheck): string {
  return [
    `database       ${c.path}`,
    `integrity      ${c.integrity}`,
    `journal mode   ${c.journalMode}`,
    `synchronous    ${c.synchronous}`,
    `foreign keys   ${c.foreignKeys ? 'on' : 'off'}`,
    `secure delete  ${c.secureDelete ? 'on' : 'off'}`,
    `schema         ${c.schemaVersion}`,
    `size           ${c.sizeBytes} bytes`,
  ].join('\n');
}

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
