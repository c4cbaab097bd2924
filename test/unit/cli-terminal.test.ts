import { describe, expect, it } from 'vitest';
import { colourEnabled, createProgressBar, formatBytes, paint, progressEnabled, progressLine } from '../../electron/cli/terminal';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('what the terminal shows', () => {
  it('colours only on a TTY; NO_COLOR and a dumb terminal turn them off; FORCE_COLOR wins', () => {
    expect(colourEnabled(tty, {})).toBe(true);
    expect(colourEnabled(pipe, {})).toBe(false);
    expect(colourEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    // no-color.org: an empty NO_COLOR does not count.
    expect(colourEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colourEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colourEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
  });

  it('paints only when enabled', () => {
    expect(paint(false).red('mnemo:')).toBe('mnemo:');
    expect(paint(true).red('mnemo:')).toBe('\x1b[31mmnemo:\x1b[39m');
  });

  it('a progress bar on a TTY only', () => {
    expect(progressEnabled(tty, {})).toBe(true);
    expect(progressEnabled(pipe, {})).toBe(false);
    expect(progressEnabled(pipe, { FORCE_COLOR: '1' })).toBe(false);
    expect(progressEnabled(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('draws one line in place and clears it at the end', () => {
    expect(progressLine('preparing', 0, 10, 80)).toMatch(/^preparing \[-+\] {3}0%$/);
    expect(progressLine('preparing', 5, 10, 80, '5/10')).toMatch(/^preparing \[#+-+\] {2}50% {2}5\/10$/);
    expect(progressLine('preparing', 12, 10, 80)).toMatch(/^preparing \[#+\] 100%$/);
    expect(progressLine('preparing', 0, 0, 80)).toContain('  0%');
    // Never wider than the terminal, so the line never wraps (a wrapped line cannot be redrawn with \r).
    expect(progressLine('downloading', 1, 2, 40, 'a very long file name that would not fit').length).toBeLessThan(40);
    const written: string[] = [];
    const bar = createProgressBar({ isTTY: true, columns: 60, write: (t: string) => written.push(t) }, 'preparing');
    bar.update(1, 4);
    bar.update(4, 4);
    bar.end();
    expect(written[0]!.startsWith('\rpreparing [')).toBe(true);
    expect(written[0]!.endsWith(']  25%\x1b[K')).toBe(true);
    expect(written.at(-1)).toBe('\r\x1b[K');
    // A terminal that reports no width (0 columns, as under script(1)) still gets a bar, 80 columns wide.
    const zero: string[] = [];
    createProgressBar({ isTTY: true, columns: 0, write: (t: string) => zero.push(t) }, 'preparing').update(1, 2);
    expect(zero[0]).toMatch(/^\rpreparing \[#+-+\] {2}50%/);
  });

  it('sizes beside a bar in B, KB and MB', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2_019_377_376)).toBe('1925.8 MB');
  });
});
