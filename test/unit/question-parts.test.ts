import { describe, expect, it } from 'vitest';
import { questionParts } from '../../electron/core/text/question-parts';

describe('questionParts', () => {
  it.each([
    ['Where do I work, and what did the dentist say?', ['Where do I work', 'what did the dentist say']],
    ['Where do I work and where does my sister live?', ['Where do I work', 'where does my sister live']],
    ['What is my cat called? And my dog?', ['What is my cat called', 'And my dog']],
    ['Where do I live; what do I drive', ['Where do I live', 'what do I drive']],
    ['我在哪里工作？还有牙医说了什么？', ['我在哪里工作', '牙医说了什么']],
    ['我住在哪里，我的猫叫什么', ['我住在哪里', '我的猫叫什么']],
    ['我喜欢什么咖啡以及什么茶', ['我喜欢什么咖啡', '什么茶']],
  ])('%s', (text, parts) => {
    expect(questionParts(text)).toEqual(parts);
  });

  it('keeps a question of one part whole, "and" between nouns included', () => {
    expect(questionParts('What do I like about tea and coffee?')).toEqual(['What do I like about tea and coffee']);
    expect(questionParts('Hi, tea and cakes, please')).toEqual(['Hi, tea and cakes, please']);
    expect(questionParts('')).toEqual(['']);
    expect(questionParts('???')).toEqual(['???']);
  });
});
