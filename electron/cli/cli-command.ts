/**
 * What a terminal command is and what it gets: the types the command registry (commands.ts) and every command file
 * (commands/*.commands.ts) share. Types only, so the registry imports its commands and the commands import this,
 * never the registry: no import circle.
 */
import type { Client } from '../../shared/client';
import type { ErrorInfo } from '../../shared/errors';
import type { Core } from '../core/create-core';
import type { Options } from './options';
import type { CliIo } from './cli-io';
import type { Paint, ProgressBar } from './terminal';

export type CliOutput =
  | { ok: true; value: unknown; text: string }
  /** report: what the command found before it failed (an import's table), shown as a success is, then the error. */
  | { ok: false; error: ErrorInfo; report?: { value: unknown; text: string } };

export interface CliContext {
  client: Client;
  args: string[];
  flags: Record<string, string>;
  json: boolean;
  /** The in-process core, for commands that drive the background queue themselves. */
  core: Core;
  /** The command line's stdin, environment, folder and Ctrl-C (never process's own: run.ts). */
  io: CliIo;
  /** Streams text to stdout as it arrives (not used with --json). */
  write(text: string): void;
  /** Tells the user one line on stderr, apart from the result (also with --json, whose stdout stays one JSON value). */
  note(line: string): void;
  /** A progress bar on stderr for long work, or null when stderr is not a terminal (then nothing is shown). */
  progress(label: string): ProgressBar | null;
  /** Colours for stdout's text: plain unless stdout is a terminal that takes them (terminal.ts). */
  paint: Paint;
  /** The user's time zone (the setting, else the system's): every time printed is its wall clock, as in the app. */
  timeZone: string;
  /** An instant as the user's wall clock reads it, "2026-06-15 07:00" (shared/calendar-day.ts localDateTime). */
  localTime(at: number, precision?: 'minute' | 'second'): string;
}

/** What a command that runs without a core gets: the data folder instead of a client. */
export interface StandaloneContext {
  args: string[];
  flags: Record<string, string>;
  json: boolean;
  dataDir: string;
  io: CliIo;
}

interface CommandWords {
  words: string[];
  synopsis: string;
  /** The options it takes besides --json, --data-dir and --help; any other is refused (parse.ts). */
  options?: Options;
}

/** Nearly every command: runs against an open core. */
export interface CoreCommand extends CommandWords {
  run(ctx: CliContext): Promise<CliOutput>;
  runWithoutCore?: never;
}

/** Runs instead of opening a core, for what must work when the database does not open (db restore). */
export interface StandaloneCommand extends CommandWords {
  runWithoutCore(ctx: StandaloneContext): Promise<CliOutput>;
  run?: never;
}

export type CliCommand = CoreCommand | StandaloneCommand;
