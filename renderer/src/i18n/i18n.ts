/**
 * Every user-visible string, in one catalog per language: locales/en.json and locales/zh-CN.json. English is the
 * reference: its keys are the type of a message key, so a component cannot ask for a string that does not exist,
 * and test/unit/i18n.test.ts holds every other catalog to the same keys and placeholders. `{name}` is a parameter.
 *
 * A message that depends on a number is an object of forms, picked by the `count` parameter: an exact value ("=1")
 * if the catalog has one, else the language's plural category from Intl.PluralRules ("one", "other"; Chinese has
 * only "other"), else "other", which every such message has.
 */
import type { ErrorCode } from '../../../shared/errors';
import en from '../locales/en.json';
import zhCN from '../locales/zh-CN.json';

export type MessageKey = keyof typeof en;
export type Params = Record<string, string | number>;
export type Language = 'en' | 'zh-CN';

export type PluralForms = { other: string } & { [category in Intl.LDMLPluralRule]?: string } & { [exact: `=${number}`]: string };
export type Message = string | PluralForms;

export const dictionaries: Record<Language, Record<MessageKey, Message>> = { en, 'zh-CN': zhCN };

/** A rule set per language, reused: building one costs far more than using it (a pure cache of immutable objects). */
const pluralRules = new Map<Language, Intl.PluralRules>();

function pluralForm(language: Language, forms: PluralForms, count: unknown): string {
  if (typeof count !== 'number') return forms.other;
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return forms[`=${count}`] ?? forms[rules.select(count)] ?? forms.other;
}

export function translate(language: Language, key: MessageKey, params?: Params): string {
  const known = dictionaries[language] ? language : 'en';
  const message = dictionaries[known][key] || en[key];
  const template = typeof message === 'string' ? message : pluralForm(known, message, params?.count);
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

type ErrorCodeWithText = Extract<ErrorCode, MessageKey extends `errorCode.${infer C}` ? C : never>;

export function isErrorCodeKey(code: string): code is ErrorCodeWithText {
  return Object.prototype.hasOwnProperty.call(en, `errorCode.${code}`);
}
