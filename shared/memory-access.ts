/**
 * How one answer reaches the user's memories: the one rule, used by the core when it answers (electron/core/chat/
 * tool-loop.ts) and by Settings when it says what the chosen way will do with the chat model (one rule, one place).
 *
 * settings.memoryAccess: 'inject' puts retrieved memories in the prompt; 'tools' keeps the prompt's always-on part
 * only (pinned memories, the profile) and offers the memory tools; 'both' does both; 'auto' is 'both' for a model that
 * says it supports tools, else 'inject'. A model known not to support tools is never offered them, whatever the
 * setting: its memories go in the prompt. A server that cannot say ('unknown', an OpenAI-compatible one) gets tools
 * only when the setting asks for them. An incognito thread or memory switched off: no memories at all, and no tools.
 */
import type { Settings } from './contract';

export type ToolSupport = 'yes' | 'no' | 'unknown';

export interface MemoryAccess {
  /** Retrieved memories go in the prompt (pinned ones and the profile always do, while memory is readable). */
  inject: boolean;
  /** The memory tools are offered. */
  tools: boolean;
}

/** What a model server says about tools: Ollama lists "tools" among a model's capabilities; others cannot say. */
export function toolSupportOf(api: 'ollama' | 'openai', capabilities: readonly string[]): ToolSupport {
  if (api !== 'ollama' || capabilities.length === 0) return 'unknown';
  return capabilities.includes('tools') ? 'yes' : 'no';
}

/** Pure: the setting, what the model supports, and whether this answer may read memory at all. */
export function resolveMemoryAccess(setting: Settings['memoryAccess'], support: ToolSupport, memoryReadable: boolean): MemoryAccess {
  if (!memoryReadable) return { inject: false, tools: false };
  if (setting === 'inject' || support === 'no') return { inject: true, tools: false };
  if (setting === 'auto') return support === 'yes' ? { inject: true, tools: true } : { inject: true, tools: false };
  return { inject: setting === 'both', tools: true };
}
