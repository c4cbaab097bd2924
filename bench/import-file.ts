const CATEGORIES = ['Preferences', 'Projects', 'Skills', '知识'];

/**
 * A text import of `lines` distinct memories (English and Chinese under category headings), none a near duplicate of
 * another: what the import and responsiveness suites feed through `memory.import`.
 */
export function importFile(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 500 === 0) out.push(`## ${CATEGORIES[(i / 500) % CATEGORIES.length]!}`);
    out.push(i % 3 === 0 ? `- 用户第${i}次提到喜欢在周末去第${i % 97}号公园散步` : `- Fact ${i}: works with tool number ${i % 211} on project ${i} every week`);
  }
  return out.join('\n');
}
