/**
 * What a command's options are: name, kind, the value's placeholder and meaning, and the check its value must pass.
 * Values that the contract constrains (memory categories and statuses, export formats, limits, shares) take their
 * allowed values or their range from the contract's zod schemas, so the command line cannot drift from the app.
 * A value that fails its check is a usage error (exit 2), like an unknown option.
 */
import type { z } from 'zod';

export type OptionSpec = BooleanOption | ValueOption;

export interface BooleanOption {
  type: 'boolean';
  help: string;
  short?: string;
}

export interface ValueOption {
  type: 'string';
  /** How the value shows in help: FILE, N, knowledge|preference|… */
  value: string;
  help: string;
  /** What is wrong with a value, or null when it is acceptable. */
  check?: (raw: string) => string | null;
}

export type Options = Record<string, OptionSpec>;

export const flag = (help: string): BooleanOption => ({ type: 'boolean', help });

export const text = (value: string, help: string): ValueOption => ({ type: 'string', value, help });

/** One of a fixed set: pass a contract enum's `.options`. */
export function oneOf(values: readonly string[], help: string): ValueOption {
  return {
    type: 'string',
    value: values.join('|'),
    help,
    check: (raw) => (values.includes(raw) ? null : `must be one of ${values.join(', ')} (got "${raw}")`),
  };
}

/** One or more of a fixed set, comma-separated. */
export function someOf(values: readonly string[], help: string): ValueOption {
  return {
    type: 'string',
    value: `${values.slice(0, 2).join(',')},…`,
    help: `${help} (one or more of ${values.join(', ')}, comma-separated)`,
    check: (raw) => {
      const given = raw.split(',').map((s) => s.trim()).filter(Boolean);
      const wrong = given.find((v) => !values.includes(v));
      return given.length > 0 && wrong === undefined ? null : `must be one or more of ${values.join(', ')}, comma-separated (got "${raw}")`;
    },
  };
}

/** A number the contract's schema accepts (a limit's range, a share from 0 to 1): the schema's own verdict. */
export function numberIn(schema: z.ZodType, value: string, help: string): ValueOption {
  return {
    type: 'string',
    value,
    help,
    check: (raw) => {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) return `must be a number (got "${raw}")`;
      const parsed = schema.safeParse(n);
      return parsed.success ? null : `${rangeOf(parsed.error)} (got "${raw}")`;
    },
  };
}

/** zod's issue, said as a command-line rule: "must be a whole number", "must be at most 500". */
function rangeOf(error: z.ZodError): string {
  const issue = error.issues[0] as { code: string; minimum?: number | bigint; maximum?: number | bigint; expected?: string; inclusive?: boolean } | undefined;
  if (!issue) return 'is not accepted';
  if (issue.code === 'too_small') return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`;
  if (issue.code === 'too_big') return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  return 'is not accepted';
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: Options = {
  json: flag('print the result as JSON on stdout (errors too: {"ok":false,"error":{code,message}})'),
  'data-dir': text('DIR', 'the data folder (default: MNEMO_DATA_DIR, else the platform’s usual place; see "mnemo info")'),
  help: { type: 'boolean', short: 'h', help: 'show help for a command or group' },
};

/** Options only without a command. */
export const TOP_LEVEL_OPTIONS: Options = {
  version: { type: 'boolean', short: 'V', help: 'print the version' },
};
