import { describe, expect, it } from 'vitest';
import { operationNames, operations } from '../../shared/contract';
import { MnemoError } from '../../shared/errors';
import { createDispatcher, type Handlers } from '../../electron/core/rpc/dispatcher';
import { silentLogger } from '../../electron/core/ports/logger.port';

// Handlers that must never run: every call in these tests is malformed, so validation has to stop it first.
const unreachable = Object.fromEntries(
  operationNames.map((name) => [
    name,
    () => {
      throw new Error(`handler for ${name} ran on invalid input`);
    },
  ]),
) as unknown as Handlers;

describe('dispatcher', () => {
  const dispatcher = createDispatcher(unreachable, silentLogger);

  it.each(operationNames)('%s rejects malformed input with INVALID_INPUT and the offending path', async (name) => {
    for (const bad of [42, 'text', [], null, { unexpectedField: 1 }]) {
      const result = await dispatcher.call(name, bad);
      expect(result.ok, `${name} accepted ${JSON.stringify(bad)}`).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('INVALID_INPUT');
        expect(result.error.message).toMatch(/Invalid request/);
      }
    }
  });

  it('names the offending field', async () => {
    const result = await dispatcher.call('thread.rename', { threadId: 3, title: 42 });
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: 'title' } });
  });

  it('refuses unknown operations, including prototype keys', async () => {
    for (const name of ['nope.nothing', '__proto__', 'constructor', 'toString', '']) {
      const result = await dispatcher.call(name, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
    }
  });

  it('turns a MnemoError into its envelope and any other throw into INTERNAL without its message', async () => {
    const handlers = {
      ...unreachable,
      'thread.get': () => {
        throw new MnemoError('NOT_FOUND', 'Thread 9 does not exist.');
      },
      'thread.list': () => {
        throw new Error('secret user text in a stack');
      },
    } as Handlers;
    const d = createDispatcher(handlers, silentLogger);
    expect(await d.call('thread.get', { threadId: 9 })).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'Thread 9 does not exist.' } });
    const internal = await d.call('thread.list', {});
    expect(internal).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(internal)).not.toContain('secret user text');
  });

  it('with checkOutputs, refuses a handler value outside the contract', async () => {
    const d = createDispatcher({ ...unreachable, 'app.info': () => ({ name: 'Mnemo' }) } as unknown as Handlers, silentLogger, { checkOutputs: true });
    expect(await d.call('app.info', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('every operation has input and output schemas and a summary', () => {
    for (const name of operationNames) {
      // domain.verb; a domain with a collection of its own may name it first (mcp.clients.list, issue 29).
      expect(name).toMatch(/^[a-z]+(\.[a-z][a-zA-Z]*)?\.[a-z][a-zA-Z]*$/);
      expect(operations[name].summary.length).toBeGreaterThan(10);
    }
  });
});
