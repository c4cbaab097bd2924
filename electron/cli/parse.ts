/** Command-line parsing for the terminal host: words, then flags (--json, --data-dir DIR, --name value, --flag). */
export class UsageError extends Error {}

export interface CommandLine {
  words: string[];
  flags: Record<string, string>;
  json: boolean;
  help: boolean;
}

const BOOLEAN_FLAGS = new Set(['json', 'help', 'pin', 'dry-run', 'incognito', 'until-idle', 'unpin', 'pinned', 'include-archived', 'include-trashed', 'latest']);

export function parseCommandLine(argv: string[]): CommandLine {
  const words: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (!name) throw new UsageError(`"${arg}" is not a valid option.`);
      if (BOOLEAN_FLAGS.has(name)) {
        flags[name] = inline ?? 'true';
      } else if (inline !== undefined) {
        flags[name] = inline;
      } else {
        const value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
        flags[name] = value;
        i++;
      }
    } else if (arg === '-h') {
      flags.help = 'true';
    } else {
      words.push(arg);
    }
  }
  return { words, flags, json: flags.json === 'true', help: flags.help === 'true' };
}
