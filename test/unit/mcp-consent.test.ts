/** The consent rule for apps connected over MCP (electron/core/mcp/mcp-consent.ts), as properties over every case. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCP_TOOLS, consentFor, rememberLands, toolListed } from '../../electron/core/mcp/mcp-consent';

const access = fc.constantFrom('read' as const, 'write' as const, 'off' as const);
const mode = fc.constantFrom('auto' as const, 'ask' as const, 'off' as const);
const tool = fc.constantFrom(...MCP_TOOLS);
const client = fc.record({ name: fc.string({ minLength: 1, maxLength: 40 }), access, conversations: fc.boolean() });
const checks = fc.record({ grounded: fc.boolean(), instruction: fc.boolean(), otherLanguage: fc.boolean() });

describe('MCP consent', () => {
  it('an app switched off is refused every tool, and told how the user allows it again', () => {
    fc.assert(
      fc.property(client, tool, mode, (c, t, m) => {
        const consent = consentFor({ ...c, access: 'off' }, t, m);
        expect(consent.allowed).toBe(false);
        if (!consent.allowed) {
          expect(consent.reason).toContain(`mnemo mcp clients set ${JSON.stringify(c.name)} read`);
          expect(consent.reason).toContain('Settings › Connected apps');
        }
      }),
    );
  });

  it('memory switched off refuses every tool to every app', () => {
    fc.assert(
      fc.property(client, tool, (c, t) => {
        expect(consentFor(c, t, 'off').allowed).toBe(false);
      }),
    );
  });

  it('otherwise read and write may use every memory tool; conversations only with their own permission', () => {
    fc.assert(
      fc.property(client, tool, fc.constantFrom('auto' as const, 'ask' as const), (c, t, m) => {
        fc.pre(c.access !== 'off');
        const consent = consentFor(c, t, m);
        expect(consent.allowed).toBe(t !== 'search_conversations' || c.conversations);
        if (!consent.allowed) expect(consent.reason).toContain('--conversations on');
      }),
    );
  });

  it('write does not imply conversations', () => {
    expect(consentFor({ name: 'Cursor', access: 'write', conversations: false }, 'search_conversations', 'auto').allowed).toBe(false);
    expect(toolListed({ conversations: false }, 'search_conversations')).toBe(false);
    expect(toolListed({ conversations: true }, 'search_conversations')).toBe(true);
    expect(MCP_TOOLS.filter((t) => t !== 'search_conversations').every((t) => toolListed({ conversations: false }, t))).toBe(true);
  });

  it('a remembered fact is a memory only from an app that may write, in auto mode, past every guard; else it waits for review', () => {
    fc.assert(
      fc.property(fc.constantFrom('read' as const, 'write' as const), fc.constantFrom('auto' as const, 'ask' as const), checks, (a, m, c) => {
        const trusted = a === 'write' && m === 'auto' && c.grounded && !c.instruction && !c.otherLanguage;
        expect(rememberLands(a, m, c)).toBe(trusted ? 'active' : 'review');
      }),
    );
  });
});
