import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MATCHED_WORDS, matchedWords } from '../../electron/core/text/matched-words';
import { writtenSegments } from '../../electron/core/text/fts-text';

describe('matchedWords: the words a receipt names for a keyword match', () => {
  it('names the shared words as the message writes them, whatever the word form', () => {
    expect(matchedWords('Do you know a good tea shop?', 'Prefers green tea over coffee')).toEqual(['tea']);
    expect(matchedWords('Where am I Living these days?', 'Lives in Porto')).toEqual(['Living']);
    expect(matchedWords('Any tips for a weekend in Porto?', 'Lives in Porto, Portugal')).toEqual(['Porto']);
    expect(matchedWords('Any good café nearby?', 'Works at a cafe downtown')).toEqual(['café']);
    expect(matchedWords('Tea or TEA, and tea again', 'Prefers green tea')).toEqual(['Tea']);
  });

  it('never names a function word, and nothing when only function words are shared', () => {
    expect(matchedWords('Where is the station?', 'The dog is where the garden is')).toEqual([]);
    expect(matchedWords('What should I cook for them?', 'Cooks for the family on Sundays')).toEqual(['cook']);
  });

  it('names Chinese by the stretch both texts hold, and a lone character', () => {
    expect(matchedWords('附近有好喝的咖啡吗', '喜欢喝咖啡')).toEqual(['咖啡']);
    expect(matchedWords('我喜欢喝咖啡', '喜欢喝咖啡和茶')).toEqual(['喜欢喝咖啡']);
    // Matched bigrams whose stretch the memory does not hold are named apart.
    expect(matchedWords('绿茶咖啡', '咖啡和绿茶')).toEqual(['绿茶', '咖啡']);
    expect(matchedWords('茶', '喜欢喝咖啡和茶')).toEqual(['茶']);
    expect(matchedWords('我住在哪个城市？', '住在里斯本')).toEqual(['住在']);
  });

  it(`names at most ${MAX_MATCHED_WORDS} words, each once`, () => {
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel';
    expect(matchedWords(`${words} alpha`, words)).toEqual(['alpha', 'bravo', 'charlie', 'delta', 'echo']);
  });

  it('names only what the message writes (property)', () => {
    const word = fc.constantFrom('tea', 'Tea', 'living', 'lives', 'Porto', 'the', 'is', '咖啡', '喝', '茶', '喜欢', 'café', 'cafe', 'of');
    const text = fc.array(word, { maxLength: 12 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(text, text, (message, memory) => {
        const named = matchedWords(message, memory);
        const written = writtenSegments(message).flatMap((s) => (s.kind === 'word' ? [s.written] : [s.written.join('')])).join(' ');
        for (const w of named) expect(written).toContain(w);
        expect(new Set(named).size).toBe(named.length);
        expect(named.length).toBeLessThanOrEqual(MAX_MATCHED_WORDS);
        if (memory.trim() === '') expect(named).toEqual([]);
      }),
    );
  });
});
