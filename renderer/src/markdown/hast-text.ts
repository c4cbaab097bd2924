/** The plain text of a hast subtree: what a code block's copy button copies (highlighting spans dropped). */
export interface HastLike {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastLike[];
}

export function hastText(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(hastText).join('');
}

/** The language named by a fenced block (```ts), read from its code element's `language-*` class. */
export function codeLanguage(pre: HastLike | undefined): string | null {
  const code = pre?.children?.find((c) => c.type === 'element');
  const classes = code?.properties?.className;
  if (!Array.isArray(classes)) return null;
  for (const c of classes) {
    if (typeof c === 'string' && c.startsWith('language-')) return c.slice('language-'.length);
  }
  return null;
}
