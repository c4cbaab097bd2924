/**
 * Which background job sent a request to the fake model server. Every job that wants JSON sends a `format` (extraction,
 * working memory, profile, episodes, consolidation), so "has a format" no longer means extraction: the schema's
 * properties tell them apart (extraction's answer is `memories`, working memory's `focus` and `tasks`).
 */
function formatProperties(body: unknown): Record<string, unknown> | null {
  const format = (body as { format?: unknown } | undefined)?.format;
  if (typeof format !== 'object' || format === null) return null;
  const properties = (format as { properties?: unknown }).properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : null;
}

export function isExtractionBody(body: unknown): boolean {
  return formatProperties(body)?.memories !== undefined;
}

export function isFocusBody(body: unknown): boolean {
  const properties = formatProperties(body);
  return properties?.focus !== undefined && properties.tasks !== undefined;
}

/** What a request to the model was for: the user's chat, or one of the background jobs (queue.usage's purposes). */
export type RequestPurpose = 'chat' | 'extract' | 'focus' | 'summary' | 'title' | 'episode' | 'profile' | 'consolidate';

/** How each background prompt without an answer schema of its own opens (title.job, summary.job, episode-prompt, profile.job, consolidation-summary). */
const PROMPT_OPENINGS: ReadonlyArray<readonly [string, RequestPurpose]> = [
  ['Write a short title', 'title'],
  ['You maintain a running summary', 'summary'],
  ['You write an episode', 'episode'],
  ['You keep a short profile', 'profile'],
  ['You keep notes about the user', 'consolidate'],
];

export function requestPurpose(body: unknown): RequestPurpose {
  if (isExtractionBody(body)) return 'extract';
  if (isFocusBody(body)) return 'focus';
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | undefined)?.messages ?? [];
  // Background prompts are the first user message; a chat's first message is its system text.
  const first = messages.find((m) => m.role === 'user');
  const text = typeof first?.content === 'string' ? first.content : '';
  return PROMPT_OPENINGS.find(([opening]) => text.startsWith(opening))?.[1] ?? 'chat';
}
