/**
 * What Settings says the chosen way of reaching memories will do with the chat model: read from the rule the core
 * answers by (shared/memory-access.ts), so the line cannot promise what the prompt does not do.
 */
import type { Settings } from '../../../shared/contract';
import { resolveMemoryAccess, type ToolSupport } from '../../../shared/memory-access';
import type { MessageKey } from '../i18n/i18n';

export interface MemoryAccessLine {
  key: MessageKey;
  params: { model: string };
}

/** support: null while it is not known (the model server not asked yet, or not answering): no line then. Pure. */
export function memoryAccessLine(input: { setting: Settings['memoryAccess']; memoryMode: Settings['memoryMode']; support: ToolSupport | null; model: string }): MemoryAccessLine | null {
  const params = { model: input.model };
  if (input.memoryMode === 'off') return { key: 'settings.memoryAccess.now.off', params };
  if (input.support === null) return null;
  const access = resolveMemoryAccess(input.setting, input.support, true);
  if (access.tools) return { key: access.inject ? 'settings.memoryAccess.now.both' : 'settings.memoryAccess.now.tools', params };
  if (input.setting === 'inject') return { key: 'settings.memoryAccess.now.inject', params };
  // The setting wanted tools (or would take them) and the model does not get them.
  return { key: input.support === 'no' ? 'settings.memoryAccess.now.noTools' : 'settings.memoryAccess.now.unknownAuto', params };
}
