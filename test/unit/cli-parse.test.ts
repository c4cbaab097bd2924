import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryCategory, MemoryStatus, operations } from '../../shared/contract';
import type { CliCommand } from '../../electron/cli/cli-command';
import { commands } from '../../electron/cli/commands';
import { ENVIRONMENT, groupHelp, topLevelHelp } from '../../electron/cli/help';
import { dataDirInUse } from '../../electron/core/ports/paths.port';
import { nearest } from '../../electron/cli/nearest';
import { parseCommandLine, takesArguments, UsageError, type CommandLine } from '../../electron/cli/parse';

const ROOT = path.resolve(import.meta.dirname, '../..');
const parse = (...argv: string[]) => parseCommandLine<CliCommand>(argv, commands);

function run(...argv: string[]): Extract<CommandLine<CliCommand>, { kind: 'run' }> {
  const r = parse(...argv);
  if (r.kind !== 'run') throw new Error(`expected a command, got ${r.kind}`);
  return r;
}

function usageError(...argv: string[]): UsageError {
  try {
    parse(...argv);
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error(`"${argv.join(' ')}" parsed without a usage error`);
}

describe('command-line parsing', () => {
  it('finds the command, its arguments and options wherever they stand', () => {
    const r = run('--data-dir', '/d', 'memory', 'add', 'Prefers', 'tea', '--category', 'preference', '--pin', '--json');
    expect(r.command.words).toEqual(['memory', 'add']);
    expect(r.args).toEqual(['Prefers', 'tea']);
    expect(r.flags).toEqual({ 'data-dir': '/d', category: 'preference', pin: 'true', json: 'true' });
    expect(r.json).toBe(true);
    expect(run('memory', 'add', '--importance=0.8', 'x').flags.importance).toBe('0.8');
    // After "--" everything is an argument, even what looks like an option.
    expect(run('memory', 'add', '--', '--not-an-option').args).toEqual(['--not-an-option']);
  });

  it('refuses an unknown option with the nearest name (the typo that used to store a memory as "knowledge")', () => {
    const e = usageError('memory', 'add', 'x', '--categroy', 'skill');
    expect(e.message).toBe('Unknown option --categroy. Did you mean --category?');
    expect(e.hint).toBe('mnemo memory add --help');
    // An option of another command is unknown here too; a name far from every option gets no guess.
    expect(usageError('memory', 'stats', '--limit', '5').message).toMatch(/^Unknown option --limit\.$/);
    expect(usageError('memory', 'add', 'x', '--zzzzzzzzzz').message).toBe('Unknown option --zzzzzzzzzz.');
    expect(usageError('memory', 'add', 'x', '-q').message).toBe('Unknown option -q.');
    expect(usageError('--jsno').message).toBe('Unknown option --jsno. Did you mean --json?');
  });

  it('takes enum values from the contract: every category and status is accepted, anything else refused', () => {
    for (const c of MemoryCategory.options) expect(run('memory', 'add', 'x', '--category', c).flags.category).toBe(c);
    expect(run('memory', 'list', '--status', MemoryStatus.options.join(',')).flags.status).toBe(MemoryStatus.options.join(','));
    expect(usageError('memory', 'add', 'x', '--category', 'hobby').message).toBe(`--category must be one of ${MemoryCategory.options.join(', ')} (got "hobby").`);
    expect(usageError('memory', 'list', '--status', 'active,gone').message).toMatch(/^--status must be one or more of active, .* \(got "active,gone"\)\.$/);
    const formats = operations['memory.export'].input.shape.format.unwrap().options;
    expect(usageError('memory', 'export', '--format', 'csv').message).toBe(`--format must be one of ${formats.join(', ')} (got "csv").`);
    expect(usageError('memory', 'import', 'f', '--on-conflict', 'merge').message).toMatch(/^--on-conflict must be one of skip, import/);
  });

  it("checks numbers against the contract's ranges", () => {
    expect(usageError('memory', 'add', 'x', '--importance', '1.5').message).toBe('--importance must be at most 1 (got "1.5").');
    expect(usageError('memory', 'add', 'x', '--importance', 'high').message).toBe('--importance must be a number (got "high").');
    expect(usageError('memory', 'list', '--limit', '0').message).toBe('--limit must be at least 1 (got "0").');
    expect(usageError('memory', 'list', '--limit', '501').message).toBe('--limit must be at most 500 (got "501").');
    expect(usageError('memory', 'search', 'q', '--limit', '2.5').message).toBe('--limit must be a whole number (got "2.5").');
    expect(usageError('chat', 'hi', '--thread', '-3').message).toMatch(/^--thread must be /);
    expect(run('memory', 'list', '--limit', '500').flags.limit).toBe('500');
  });

  it('a value missing, or given to a switch, is an error', () => {
    expect(usageError('db', 'check', '--data-dir').message).toBe('--data-dir needs a value: --data-dir DIR.');
    expect(usageError('chat', '--thread', '--json', 'hi').message).toBe('--thread needs a value: --thread ID.');
    expect(usageError('memory', 'add', 'x', '--pin=yes').message).toBe('--pin takes no value (got "yes").');
  });

  it('unknown commands suggest the nearest; a group alone lists its commands', () => {
    expect(usageError('memory', 'stast').message).toBe('Unknown command "memory stast". Did you mean "mnemo memory stats"?');
    expect(usageError('memory').message).toMatch(/^"memory" needs a command: add, list, search, show, edit, .*stats/);
    expect(usageError('no', 'such').hint).toBe('mnemo --help');
  });

  it('a command that takes no arguments refuses extra words instead of ignoring them', () => {
    expect(usageError('memory', 'stats', 'foo').message).toBe('"mnemo memory stats" takes no arguments (got "foo").');
    expect(usageError('queue', 'run', '--until-idle', 'now').message).toBe('"mnemo queue run" takes no arguments (got "now").');
    expect(usageError('thread', 'list', 'all').hint).toBe('mnemo thread list --help');
    // Beside longer commands of its group, an extra word is a mistyped command.
    expect(usageError('models', 'pul', 'x').message).toMatch(/^Unknown command "models pul x"\. Did you mean "mnemo models pull"\?/);
    // Arguments, optional ones and "FILE|--latest" still pass.
    expect(run('memory', 'show', '5').args).toEqual(['5']);
    expect(run('thread', 'model', '3').args).toEqual(['3']);
    expect(run('settings', 'get', 'language').args).toEqual(['language']);
    expect(run('db', 'restore', 'f.db').args).toEqual(['f.db']);
    expect(run('memory', 'list', 'tea', 'coffee').args).toEqual(['tea', 'coffee']);
    expect(run('chat', 'hello', 'there').args).toEqual(['hello', 'there']);
    // Every command either names an argument in its synopsis or takes none: none is left to chance.
    const none = commands.filter((c) => !takesArguments(c)).map((c) => c.words.join(' '));
    expect(none).toEqual(expect.arrayContaining(['memory stats', 'queue status', 'thread list', 'db check', 'info', 'profile show']));
    expect(none).not.toContain('memory show');
  });

  it('help and version', () => {
    expect(parse()).toEqual({ kind: 'help', words: [] });
    expect(parse('--help')).toEqual({ kind: 'help', words: [] });
    expect(parse('memory', '-h')).toEqual({ kind: 'help', words: ['memory'] });
    expect(parse('memory', 'add', '--help', '--categroy')).toEqual({ kind: 'help', words: ['memory', 'add'] });
    expect(parse('--version')).toEqual({ kind: 'version' });
    expect(parse('-V')).toEqual({ kind: 'version' });
  });

  it('every command and option shows in the help', () => {
    const top = topLevelHelp(commands, '9.9.9');
    expect(top).toContain('mnemo 9.9.9');
    for (const group of new Set(commands.map((c) => c.words[0]!))) {
      expect(top).toMatch(new RegExp(`^  ${group} +\\S`, 'm'));
      const help = groupHelp(commands, [group])!;
      for (const c of commands.filter((x) => x.words[0] === group)) {
        expect(help).toContain(`mnemo ${c.synopsis}`);
        for (const name of Object.keys(c.options ?? {})) expect(help).toContain(`--${name}`);
      }
    }
    expect(groupHelp(commands, ['memory', 'add'])).not.toContain('memory list');
    expect(groupHelp(commands, ['nothing'])).toBeNull();
  });

  it('the help gives the data folder\'s precedence the way it is applied: --data-dir over MNEMO_DATA_DIR', () => {
    expect(dataDirInUse('/from/option', { MNEMO_DATA_DIR: '/from/env' })).toEqual({ dir: path.resolve('/from/option'), source: 'option' });
    const line = ENVIRONMENT.find((l) => l.startsWith('MNEMO_DATA_DIR'))!;
    expect(line).toContain('when --data-dir is not given');
    expect(line).not.toMatch(/else --data-dir/);
    expect(topLevelHelp(commands, '9.9.9')).toContain(line);
  });

  it('thread export/import and profile take the options the contract allows, and show in their groups\' help', () => {
    const formats = operations['thread.export'].input.shape.format.unwrap().options;
    for (const f of formats) expect(run('thread', 'export', '3', '--format', f, '--out', 'x.md').flags).toMatchObject({ format: f, out: 'x.md' });
    expect(run('thread', 'export').args).toEqual([]);
    expect(usageError('thread', 'export', '--format', 'html').message).toBe(`--format must be one of ${formats.join(', ')} (got "html").`);
    expect(run('thread', 'import', 'f.json', '--dry-run').flags['dry-run']).toBe('true');
    expect(usageError('thread', 'import', 'f.json', '--on-conflict', 'skip').message).toBe('Unknown option --on-conflict.');
    expect(run('profile', 'edit', '--file', 'p.md').flags.file).toBe('p.md');
    expect(run('profile', 'refresh', '--wait').command.words).toEqual(['profile', 'refresh']);
    expect(usageError('profile', 'show', '--wait').message).toBe('Unknown option --wait.');
    expect(usageError('profile').message).toBe('"profile" needs a command: show, edit, refresh.');
    expect(usageError('profile', 'refesh').message).toBe('Unknown command "profile refesh". Did you mean "mnemo profile refresh"?');

    expect(topLevelHelp(commands, '1.0.0')).toMatch(/^ {2}profile +what Mnemo knows about you/m);
    const thread = groupHelp(commands, ['thread'])!;
    expect(thread).toContain('mnemo thread export [ID] [--format md|json] [--out FILE]');
    expect(thread).toContain(`--format ${formats.join('|')}`);
    expect(thread).toContain('mnemo thread import FILE [--dry-run]');
    const profile = groupHelp(commands, ['profile'])!;
    for (const words of ['profile show', 'profile edit [--file FILE]', 'profile refresh [--wait]']) expect(profile).toContain(`mnemo ${words}`);
  });

  it("every command line in the user guide's terminal examples still parses", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'docs/GUIDE.md'), 'utf8');
    // As `npm run -s cli -- …` or as `mnemo …`, whichever the guide shows.
    const lines = [...readme.matchAll(/^(?:printf %s "\$KEY" \| )?(?:npm run -s cli --|mnemo) (.+)$/gm)].map((m) => m[1]!);
    expect(lines.length).toBeGreaterThan(20);
    const placeholders: Record<string, string> = { C: 'preference', N: '5', X: '0.5', T: 'text', ID: '1', VERSION: '2', DATE: '2026-12-31', KEY: 'retrieval.limit', FILE: 'f.txt', NAME: 'llama3.2', words: 'tea' };
    for (const line of lines) {
      // Help and version lines are checked by the help tests above.
      if (line.includes('<group>') || /(^|\s)(--help|--version|-h|-V)\b/.test(line)) continue;
      const first = line.replace(/#.*$/, '').split(' | ')[0]!;
      // "[--pin|--unpin]", "json|md", "FILE|--latest": the first alternative; "[...]": the optional part included.
      const words = [...first.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!.replace(/[[\]]/g, '').split('|')[0]!).filter(Boolean);
      const argv = words.map((w) => placeholders[w] ?? w);
      expect(() => run(...argv), argv.join(' ')).not.toThrow();
    }
  });
});

describe('nearest', () => {
  it('suggests a likely slip, not a distant word', () => {
    expect(nearest('categroy', ['category', 'importance', 'pin'])).toBe('category');
    expect(nearest('IMPORTANCE', ['category', 'importance'])).toBe('importance');
    expect(nearest('zzzzzzzz', ['category', 'importance'])).toBeNull();
    expect(nearest('zzzzzzzz', ['category', 'importance'], true)).not.toBeNull();
  });
});
