/**
 * axe-core (Deque's accessibility engine, the npm package) run in the page: WCAG 2.0/2.1 A and AA rules. Loaded by
 * the DevTools protocol's evaluate rather than a <script> tag, which the renderer's Content-Security-Policy would
 * refuse (and should: it allows no inline script).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The serious and critical violations on the page as it is now (or in the part named by a CSS selector). */
export async function seriousViolations(page: Page, within?: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (within) => {
    const axe = (window as unknown as { axe: { run(ctx: Document | string, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(within ?? document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => String(n.target.join(' '))) }));
  }, within);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
