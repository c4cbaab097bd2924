/**
 * The web host's body limit is the contract's largest input (shared/contract/input-limits.ts): every operation's
 * largest valid input, written as JSON the longest way, fits in REQUEST_BODY_MAX_BYTES. The bound of each input is
 * read from its schema (z.toJSONSchema), so an operation added later is checked without being listed here.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ATTACHMENT_LIMITS,
  IMPORT_MAX_CHARS,
  JSON_BYTES_PER_CHAR_AT_MOST,
  MESSAGE_MAX_CHARS,
  REQUEST_BODY_MAX_BYTES,
  operations,
  type OperationName,
} from '../../shared/contract';

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/** Inputs with a field the contract sets no maximum for (a server address, a list of job states). */
const UNBOUNDED: OperationName[] = ['settings.update', 'queue.list'];
/** The longest way JSON writes a number: -2.2250738585072014e-308. */
const NUMBER_BYTES = 24;

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The most bytes a value valid against `schema` can take as JSON; Infinity when the schema sets no bound. */
function largestJsonBytes(schema: JsonSchema): number {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return Math.max(...alternatives.map(largestJsonBytes));
  if (schema.const !== undefined) return bytes(schema.const);
  if (schema.enum) return Math.max(...schema.enum.map(bytes));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return Math.max(...types.map((type) => largestOfType(type, schema)));
}

function largestOfType(type: string | undefined, schema: JsonSchema): number {
  switch (type) {
    case 'string':
      return schema.maxLength === undefined ? Infinity : 2 + schema.maxLength * JSON_BYTES_PER_CHAR_AT_MOST;
    case 'integer':
      return schema.minimum !== undefined && schema.maximum !== undefined ? Math.max(bytes(schema.minimum), bytes(schema.maximum)) : NUMBER_BYTES;
    case 'number':
      return NUMBER_BYTES;
    case 'boolean':
      return bytes(false);
    case 'null':
      return bytes(null);
    case 'array':
      return schema.maxItems === undefined || !schema.items ? Infinity : 2 + schema.maxItems * (largestJsonBytes(schema.items) + 1);
    case 'object': {
      // Every property present, each with its name, a colon and a comma.
      const fields = Object.entries(schema.properties ?? {}).map(([key, value]) => bytes(key) + 2 + largestJsonBytes(value));
      return 2 + fields.reduce((a, b) => a + b, 0);
    }
    default:
      return Infinity; // a schema the walk does not know bounds nothing: the test then names it
  }
}

const inputBound = (name: OperationName) => largestJsonBytes(z.toJSONSchema(operations[name].input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
const names = Object.keys(operations) as OperationName[];

describe('the request body limit', () => {
  it('JSON writes no character in more than JSON_BYTES_PER_CHAR_AT_MOST bytes (every UTF-16 code unit)', () => {
    let most = 0;
    for (let code = 0; code <= 0xffff; code++) most = Math.max(most, bytes(String.fromCharCode(code)) - 2);
    expect(most).toBe(JSON_BYTES_PER_CHAR_AT_MOST);
  });

  it("covers every operation's largest valid input", () => {
    const tooLarge: string[] = [];
    const unbounded: string[] = [];
    for (const name of names) {
      const bound = inputBound(name);
      if (bound === Infinity) unbounded.push(name);
      else if (bound > REQUEST_BODY_MAX_BYTES) tooLarge.push(`${name}: ${bound} bytes`);
    }
    expect(tooLarge).toEqual([]);
    // A new field without a maximum shows here: give it one (or add the operation, with the reason, to UNBOUNDED).
    expect(unbounded.filter((name) => !UNBOUNDED.includes(name as OperationName))).toEqual([]);
  });

  it('is the largest input (an import) plus room for its other fields, not a guess', () => {
    const bounded = names.map((name) => ({ name, bound: inputBound(name) })).filter((o) => o.bound !== Infinity);
    const largest = bounded.reduce((a, b) => (b.bound > a.bound ? b : a));
    expect(['thread.import', 'memory.import']).toContain(largest.name);
    expect(largest.bound).toBeGreaterThanOrEqual(IMPORT_MAX_CHARS * JSON_BYTES_PER_CHAR_AT_MOST);
    expect(REQUEST_BODY_MAX_BYTES - largest.bound).toBeLessThan(64 * 1024);
  });

  it('a real largest chat.send (five full attachments, control characters throughout) is valid and within the bound the walk gives', () => {
    const worst = (n: number) => '\u0001'.repeat(n);
    const input = {
      threadId: Number.MAX_SAFE_INTEGER,
      text: worst(MESSAGE_MAX_CHARS),
      model: worst(200),
      incognito: false,
      attachments: Array.from({ length: ATTACHMENT_LIMITS.maxFiles }, () => ({
        name: worst(ATTACHMENT_LIMITS.maxNameChars),
        text: worst(ATTACHMENT_LIMITS.maxTextChars),
        learn: false,
      })),
    };
    expect(operations['chat.send'].input.safeParse(input).success).toBe(true);
    expect(bytes(input)).toBeLessThanOrEqual(inputBound('chat.send'));
    expect(bytes(input)).toBeLessThanOrEqual(REQUEST_BODY_MAX_BYTES);
    // One more character is refused by the contract itself, whatever the host.
    expect(operations['chat.send'].input.safeParse({ ...input, text: worst(MESSAGE_MAX_CHARS + 1) }).success).toBe(false);
  });

  it('an import one character over the maximum is refused by the contract with its own message', () => {
    const r = operations['thread.import'].input.safeParse({ content: 'x'.repeat(IMPORT_MAX_CHARS + 1) });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/at most 50 million characters; split the file/);
  });
});
