/**
 * Command-line parsing for the terminal host: the words name a command, the rest are its arguments and options.
 * Strict: an option the command does not take, a value it cannot accept, a missing value are usage errors (exit 2)
 * that name the nearest option when one is near. The scan is node's util.parseArgs; its strict mode is not used
 * because its errors cannot say which command the option belonged to or suggest a name, so the same checks run over
 * its tokens here.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nearest } from './nearest';
import { GLOBAL_OPTIONS, TOP_LEVEL_OPTIONS, type Options } from './options';

/** A command line that is wrong: exit 2. `hint` is the help to point at (e.g. "mnemo memory add --help"). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** What parsing needs to know of a command. */
export interface ParsableCommand {
  words: string[];
  options?: Options;
  /** The words, then its arguments and options, then (after two spaces) what it does: the help's line. */
  synopsis?: string;
}

export type CommandLine<C extends ParsableCommand> =
  | { kind: 'help'; words: string[] }
  | { kind: 'version' }
  | { kind: 'run'; command: C; args: string[]; flags: Record<string, string>; json: boolean };

/** The command named by the leading words: the longest match. */
export function findCommand<C extends ParsableCommand>(commands: readonly C[], words: readonly string[]): { command: C; args: string[] } | null {
  let best: C | null = null;
  for (const command of commands) {
    if (command.words.every((w, i) => words[i] === w) && (!best || command.words.length > best.words.length)) best = command;
  }
  return best ? { command: best, args: words.slice(best.words.length) } : null;
}

export function parseCommandLine<C extends ParsableCommand>(argv: readonly string[], commands: readonly C[]): CommandLine<C> {
  // First pass: every option any command knows, so that "--data-dir DIR memory stats" finds its words.
  const everyOption: Options = { ...TOP_LEVEL_OPTIONS, ...GLOBAL_OPTIONS };
  for (const c of commands) Object.assign(everyOption, c.options);
  const { positionals, tokens } = parseArgs({ args: [...argv], options: configOf(everyOption), strict: false, allowPositionals: true, tokens: true });
  const given = new Set(tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])));

  if (given.has('help')) return { kind: 'help', words: positionals };
  if (positionals.length === 0) {
    if (given.has('version')) return { kind: 'version' };
    const stray = tokens.find((t) => t.kind === 'option' && !(t.name in GLOBAL_OPTIONS));
    if (stray?.kind === 'option') throw unknownOption(stray.rawName, Object.keys({ ...TOP_LEVEL_OPTIONS, ...GLOBAL_OPTIONS }), 'mnemo --help');
    return { kind: 'help', words: [] };
  }

  const found = findCommand(commands, positionals);
  if (!found) throw unknownCommand(positionals, commands);
  const hint = `mnemo ${found.command.words.join(' ')} --help`;
  if (found.args.length > 0 && !takesArguments(found.command)) {
    // "models foo" beside "models pull": a mistyped command of the group, not an argument.
    if (commands.some((c) => c.words.length > found.command.words.length && found.command.words.every((w, i) => c.words[i] === w))) throw unknownCommand(positionals, commands);
    throw new UsageError(`"mnemo ${found.command.words.join(' ')}" takes no arguments (got "${found.args.join(' ')}").`, hint);
  }
  const allowed: Options = { ...GLOBAL_OPTIONS, ...found.command.options };
  const flags: Record<string, string> = {};
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = allowed[t.name];
    if (!spec) throw unknownOption(t.rawName, Object.keys(allowed), hint);
    if (spec.type === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`${t.rawName} takes no value (got "${t.value}").`, hint);
      flags[t.name] = 'true';
      continue;
    }
    // Without strict mode parseArgs takes the next word even when it is an option ("--thread --json").
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith('--'))) throw new UsageError(`${t.rawName} needs a value: ${t.rawName} ${spec.value}.`, hint);
    const wrong = spec.check?.(t.value);
    if (wrong) throw new UsageError(`${t.rawName} ${wrong}.`, hint);
    flags[t.name] = t.value;
  }
  return { kind: 'run', command: found.command, args: found.args, flags, json: flags.json === 'true' };
}

/**
 * Whether the synopsis names an argument (ID, FILE, "text", [NAME]…) beside its options: a command that takes none
 * refuses extra words instead of ignoring them ("memory stats foo"). Without a synopsis, arguments are allowed.
 */
export function takesArguments(command: ParsableCommand): boolean {
  if (command.synopsis === undefined) return true;
  const rest = command.synopsis.slice(command.words.join(' ').length);
  // Two spaces end the usage and begin the description.
  const usage = /^\s{2,}/.test(rest) ? '' : rest.split(/\s{2,}/)[0]!;
  return usage.replace(/\[--[^\]]*\]/g, '').split(/\s+/).some((token) => token !== '' && !token.startsWith('--'));
}

function configOf(options: Options): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.type === 'boolean' && o.short ? { type: o.type, short: o.short } : { type: o.type }]));
}

function unknownOption(raw: string, known: readonly string[], hint: string): UsageError {
  const near = raw.startsWith('--') ? nearest(raw.slice(2), known) : null;
  return new UsageError(`Unknown option ${raw}.${near ? ` Did you mean --${near}?` : ''}`, hint);
}

function unknownCommand(words: readonly string[], commands: readonly ParsableCommand[]): UsageError {
  const names = commands.map((c) => c.words.join(' '));
  const typed = words.slice(0, 2).join(' ');
  const group = commands.some((c) => c.words[0] === words[0]) ? words[0] : null;
  if (group && words.length === 1) {
    const subcommands = commands.filter((c) => c.words[0] === group).map((c) => c.words.slice(1).join(' '));
    return new UsageError(`"${group}" needs a command: ${subcommands.join(', ')}.`, `mnemo ${group} --help`);
  }
  const near = nearest(typed, names);
  const guess = near ? ` Did you mean "mnemo ${near}"?` : '';
  return new UsageError(`Unknown command "${words.join(' ')}".${guess}`, group ? `mnemo ${group} --help` : 'mnemo --help');
}
