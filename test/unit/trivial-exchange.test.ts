import { describe, expect, it } from 'vitest';
import { isTrivial } from '../../electron/core/text/small-talk';

describe('isTrivial: small talk is not sent to the extraction model', () => {
  it('greetings, thanks and one-word replies are small talk, in both languages', () => {
    for (const text of ['hello', 'hi there', 'ok', 'lol ok thanks', 'Tell me a joke', '好的', '谢谢你！', '嗯嗯']) expect(isTrivial(text), text).toBe(true);
  });

  it('a short fact is not, whatever its length in characters (Chinese facts are often under 20)', () => {
    for (const text of ['I live in Porto.', '我对青霉素过敏，以前打针差点出事。', '我在学日语，打算明年去东京读研究生。', '我住在杭州。', 'Allergic to penicillin']) {
      expect(isTrivial(text), text).toBe(false);
    }
  });
});
