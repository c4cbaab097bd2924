/**
 * docs/CLI.md, written from the command registry and the help texts (help.ts): every group, every command's synopsis
 * and options. `npm run docs:cli` writes the file; test/unit/docs.test.ts fails when the committed one differs, so
 * the reference cannot drift from the commands.
 */
import { ENVIRONMENT, EXIT_STATUS, GROUPS, optionLines } from './help';
import { GLOBAL_OPTIONS, TOP_LEVEL_OPTIONS } from './options';
import type { CliCommand } from './cli-command';

export const CLI_REFERENCE_PATH = 'docs/CLI.md';

function block(lines: readonly string[]): string {
  return ['```text', ...lines, '```'].join('\n');
}

export function cliReference(commands: readonly CliCommand[]): string {
  const groups = [...new Set(commands.map((c) => c.words[0]!))];
  const sections = groups.map((group) => {
    const lines = commands
      .filter((c) => c.words[0] === group)
      .flatMap((c, i) => [...(i > 0 ? [''] : []), `mnemo ${c.synopsis}`, ...(c.options ? optionLines(c.options) : [])]);
    return [`## mnemo ${group}`, GROUPS[group] ? `${GROUPS[group]}.` : '', block(lines)].filter(Boolean).join('\n\n');
  });
  return [
    '# The `mnemo` command',
    '',
    '<!-- Generated from electron/cli/commands.ts and electron/cli/help.ts by `npm run docs:cli`: edit those, not this file. -->',
    '',
    "`mnemo` is Mnemo's terminal host: the same core as the app, on the same data folder. How to run it, `--json`,",
    'colours and the `mnemo` an installed app ships: [GUIDE.md](GUIDE.md#the-terminal-mnemo). `mnemo <group> --help`',
    'prints the same as each section below.',
    '',
    '```text',
    'usage: mnemo <group> <command> [args] [options]',
    '```',
    '',
    '## Options every command takes',
    '',
    block(optionLines(GLOBAL_OPTIONS)),
    '',
    'Without a command:',
    '',
    block(optionLines(TOP_LEVEL_OPTIONS)),
    '',
    '## Environment',
    '',
    block(ENVIRONMENT),
    '',
    `${EXIT_STATUS.replace(/^exit status/, 'Exit status')}`,
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
}
