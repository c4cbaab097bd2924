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
