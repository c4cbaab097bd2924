/**
 * The forget-request rule (electron/core/text/forget-request.ts) on a corpus of sentences people write: requests to
 * forget, with the subject they name, and sentences that use the same words without asking Mnemo to forget anything.
 */
import { describe, expect, it } from 'vitest';
import { detectForgetRequest } from '../../electron/core/text/forget-request';

/** [message, the subject it asks to forget] */
const REQUESTS: ReadonlyArray<readonly [string, string]> = [
  ['Forget that I live in Berlin', 'I live in Berlin'],
  ['Please forget that I live in Berlin.', 'I live in Berlin'],
  ['please forget about my old job at Acme', 'my old job at Acme'],
  ['Can you forget that my sister is called Anna?', 'my sister is called Anna'],
  ['Could you please forget the fact that I smoke', 'I smoke'],
  ['I want you to forget my address', 'my address'],
  ['Forget everything you know about my ex', 'my ex'],
  ['forget what I told you about the dentist', 'the dentist'],
  ['Thanks! Forget that I live in Berlin. I moved to Paris.', 'I live in Berlin'],
  ["Don't remember that I'm allergic to nuts", "I'm allergic to nuts"],
  ['Do not remember my phone number', 'my phone number'],
  ['Stop remembering that I have a cat', 'I have a cat'],
  ['Delete what you know about my job', 'my job'],
  ['Please delete everything you remember about Anna', 'Anna'],
  ['Remove any memories about my knee injury', 'my knee injury'],
  ['Delete the memory that says I like jazz', 'I like jazz'],
  ['Remove my address from your memory', 'my address'],
  ['Okay, forget that I prefer tea, please', 'I prefer tea'],
  ['忘掉我住在柏林', '我住在柏林'],
  ['请忘记我住在柏林这件事。', '我住在柏林'],
  ['忘了我对花生过敏吧', '我对花生过敏'],
  ['把我住在柏林的事忘掉', '我住在柏林'],
  ['别记住我的电话号码', '我的电话号码'],
  ['不要记住我养了一只猫', '我养了一只猫'],
  ['你别再记着我前男友的名字了', '我前男友的名字'],
  ['删除关于我工作的记忆', '我工作'],
  ['请删掉你记得的关于安娜的信息', '安娜'],
  ['帮我删除你记住的我的地址', '我的地址'],
  ['不用记我的生日了', '我的生日'],
  ['Hey Mnemo, stop remembering my old phone number', 'my old phone number'],
];

const NOT_REQUESTS: readonly string[] = [
  'I forgot my keys',
  "Don't forget to call mom",
  'do not forget to water the plants tomorrow',
  "I don't remember where I parked the car",
  'Did you forget what I said?',
  'I always forget her birthday',
  'Never mind, forget it.',
  'Forget it',
  'forget that',
  'How do I make my phone forget a Wi-Fi network?',
  'Delete this file from the folder',
  'Remove the second paragraph',
  'My grandmother is starting to forget things',
  "Let's not forget the budget meeting",
  'I can’t remember the name of that film',
  'Remember that I live in Berlin',
  "Don't forget that I'm vegetarian",
  'Can you forget about it?',
  'I never remember which bin goes out on Monday',
  'You forgot to answer my question',
  '我忘了带钥匙',
  '别忘了给妈妈打电话',
  '我不记得了',
  '我总是忘记她的生日',
  '忘了吧',
  '删除这个文件',
  '你还记得我住在哪里吗？',
  '记住我住在柏林',
  '我奶奶最近老是忘记事情',
  '别忘记我对花生过敏',
  '不要忘了我明天的会',
  '你忘了回答我的问题',
  '我记不住单词',
  '忘了带伞',
  '忘记带钥匙了',
  '忘掉了密码',
];

describe('detectForgetRequest', () => {
  it.each(REQUESTS)('%s -> a request to forget "%s"', (text, subject) => {
    expect(detectForgetRequest(text)).toEqual({ subject });
  });

  it.each(NOT_REQUESTS)('%s -> not a request', (text) => {
    expect(detectForgetRequest(text)).toBeNull();
  });
});
