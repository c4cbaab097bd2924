/**
 * What Settings says about "How answers reach your memories" is what the core does: the line is read from the rule
 * the tool loop answers by (shared/memory-access.ts), for every setting, model and memory mode.
 */
import { describe, expect, it } from 'vitest';
import { resolveMemoryAccess, toolSupportOf, type ToolSupport } from '../../shared/memory-access';
import { memoryAccessLine } from '../../renderer/src/settings/memory-access-line';
import { translate } from '../../renderer/src/i18n/i18n';

const SETTINGS = ['auto', 'inject', 'tools', 'both'] as const;
const SUPPORT: ToolSupport[] = ['yes', 'no', 'unknown'];
const line = (setting: (typeof SETTINGS)[number], support: ToolSupport | null, memoryMode: 'auto' | 'ask' | 'off' = 'auto') =>
  memoryAccessLine({ setting, memoryMode, support, model: 'gemma3:4b' })?.key ?? null;

describe('memoryAccessLine', () => {
  it('"The model searches" with a model without tools says the memories go into the prompt instead (as the core answers)', () => {
    expect(line('tools', 'no')).toBe('settings.memoryAccess.now.noTools');
    expect(line('both', 'no')).toBe('settings.memoryAccess.now.noTools');
    expect(line('auto', 'no')).toBe('settings.memoryAccess.now.noTools');
    expect(translate('en', 'settings.memoryAccess.now.noTools', { model: 'gemma3:4b' })).toBe(
      'gemma3:4b cannot use tools: the memories that match your message go into the prompt instead, and the model does not search.',
    );
  });

  it('with a model that has tools: what each setting sends', () => {
    expect(line('auto', 'yes')).toBe('settings.memoryAccess.now.both');
    expect(line('both', 'yes')).toBe('settings.memoryAccess.now.both');
    expect(line('tools', 'yes')).toBe('settings.memoryAccess.now.tools');
    expect(line('inject', 'yes')).toBe('settings.memoryAccess.now.inject');
  });

  it('a server that cannot say (OpenAI-compatible): automatic injects, an explicit choice offers the tools', () => {
    expect(toolSupportOf('openai', ['tools'])).toBe('unknown');
    expect(line('auto', 'unknown')).toBe('settings.memoryAccess.now.unknownAuto');
    expect(line('tools', 'unknown')).toBe('settings.memoryAccess.now.tools');
    expect(line('both', 'unknown')).toBe('settings.memoryAccess.now.both');
  });

  it('memory off: no memories whatever the choice; support not known yet: no line', () => {
    for (const setting of SETTINGS) {
      expect(line(setting, 'yes', 'off')).toBe('settings.memoryAccess.now.off');
      expect(line(setting, null)).toBeNull();
    }
    for (const setting of SETTINGS) expect(resolveMemoryAccess(setting, 'yes', false)).toEqual({ inject: false, tools: false });
  });

  it('for every setting and model, the line names tools and injection exactly when the rule gives them', () => {
    for (const setting of SETTINGS) {
      for (const support of SUPPORT) {
        const access = resolveMemoryAccess(setting, support, true);
        const key = line(setting, support)!;
        const saysTools = key.endsWith('.tools') || key.endsWith('.both');
        const saysInject = !key.endsWith('.tools');
        expect({ setting, support, tools: saysTools, inject: saysInject }).toEqual({ setting, support, tools: access.tools, inject: access.inject });
      }
    }
  });

  it('Ollama says whether a model takes tools by its capabilities; an older Ollama that lists none cannot say', () => {
    expect(toolSupportOf('ollama', ['completion', 'tools'])).toBe('yes');
    expect(toolSupportOf('ollama', ['completion'])).toBe('no');
    expect(toolSupportOf('ollama', [])).toBe('unknown');
  });
});
