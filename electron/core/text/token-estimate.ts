/**
 * Token counts for prompt budgeting without a tokenizer model. The estimate is a deliberately simple model of
 * byte-level BPE vocabularies (Llama 3, Qwen 2.5, Gemma, Mistral), which disagree with each other by ±30%;
 * the calibrator then learns the ratio of the model actually in use from Ollama's prompt_eval_count.
 *
 * Model, per maximal run of one character class:
 * - ASCII word: max(1, length / 4), so short words are one token and "the quick brown fox" ≈ 1 token a word;
 *   accented Latin and other alphabets cost more per character (fewer merges in the vocabularies);
 * - digits: max(1, length / 2), between 3-digit grouping (Llama 3) and one token per digit (Qwen, Gemma);
 * - ASCII punctuation: max(1, length / 2), since runs such as "..." or "**" are often merged;
 * - whitespace: a single space is free (BPE glues it to the next word), any other run max(1, length / 8);
 * - CJK characters, including CJK punctuation and full-width forms: 1 each, the upper-middle of the 0.6–1.5 tokens
 *   per character seen across vocabularies (over-estimating only wastes a little context);
 * - astral characters (emoji, rare Han): 1.5 each; anything else: 1 each.
 *
 * Costs are kept in integer units of 1/40 token so sums are exact. Because a run's cost never decreases as it grows
 * and is subadditive up to one token, estimate(a + b) lies in [max(estimate(a), estimate(b)), estimate(a) +
 * estimate(b) + 1]: budgets computed per message and per prompt agree.
 *
 * Hand-written, not a tokenizer library: a tokenizer is exact for one vocabulary only (gpt-tokenizer: OpenAI's; a
 * model's own through @huggingface/transformers needs that model's tokenizer files, a download Mnemo does not make),
 * while Mnemo budgets offline for whichever model Ollama runs, so it would still need the calibrator above.
 */

const UNIT = 40;

// Run kinds: a run is a maximal stretch of characters of one kind, costed as a whole.
const NO_RUN = 0;
const SPACE_RUN = 1;
const WORD_RUN = 2;
const DIGIT_RUN = 3;
const PUNCT_RUN = 4;

// Cost in units of one character in its run.
const ASCII_LETTER = 10;
const LATIN_EXTENDED_LETTER = 16;
const OTHER_LETTER = 20;
const DIGIT = 20;
const ASCII_PUNCT = 20;
const SPACE = 5;
const CJK = 40;
const SURROGATE_HALF = 30;
const OTHER = 40;
const MIN_RUN = UNIT;

function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function isCjk(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0x3400 && c <= 0x4dbf) || // extension A
    (c >= 0x3001 && c <= 0x33ff) || // CJK punctuation, kana, bopomofo, Hangul compatibility jamo, enclosed
    (c >= 0xac00 && c <= 0xd7af) || // Hangul syllables
    (c >= 0x1100 && c <= 0x11ff) || // Hangul jamo
    (c >= 0xf900 && c <= 0xfaff) || // compatibility ideographs
    (c >= 0xff00 && c <= 0xffef) // full-width and half-width forms
  );
}

/** Cost in units of the letter c, or 0 when c is not a letter of a spaced alphabet. */
function letterCost(c: number): number {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) return ASCII_LETTER;
  if (c < 0xc0) return 0;
  if (c <= 0x24f) return c === 0xd7 || c === 0xf7 ? 0 : LATIN_EXTENDED_LETTER;
  if (c >= 0x1e00 && c <= 0x1eff) return LATIN_EXTENDED_LETTER;
  if (c >= 0x1100 && c <= 0x11ff) return 0; // Hangul jamo: counted as CJK
  // IPA, combining marks, Greek, Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai, Georgian, ... up to Greek
  // extended. Punctuation of these scripts is counted as letters; it is rare enough not to matter.
  if (c < 0x2000) return OTHER_LETTER;
  return 0;
}

function runCost(kind: number, units: number, length: number, firstChar: number): number {
  if (kind === NO_RUN) return 0;
  if (kind === SPACE_RUN && length === 1 && firstChar === 0x20) return 0;
  return Math.max(MIN_RUN, units);
}

/** Estimated prompt tokens of `text`; 0 for the empty string. One pass over UTF-16 code units, no allocation. */
export function estimateTokens(text: string): number {
  return Math.ceil(walk(text, Infinity) / UNIT);
}

/**
 * No text costs less than one token per MAX_CHARS_PER_TOKEN characters, bar one: every character costs at least
 * SPACE units (1/8 token) within its run, runs and stand-alone characters cost at least MIN_RUN or SURROGATE_HALF,
 * and the only free character, a single ASCII space, is always beside such a run or character, which pays for it
 * too (a word of k letters with its spaces: k + 2 characters for at least max(MIN_RUN, 10k) ≥ 5(k + 2) units). So
 * estimateTokens(t) ≥ (t.length - 1) / 8, and a search for what fits in N tokens never looks past
 * maxCharsWithin(N) characters (test/unit/token-estimate.test.ts checks the bound as a property).
 */
export const MAX_CHARS_PER_TOKEN = 8;

/** A length above which no text fits in `maxTokens`: estimateTokens(t) > maxTokens whenever t.length > this. */
export function maxCharsWithin(maxTokens: number): number {
  return MAX_CHARS_PER_TOKEN * (Math.max(0, Math.floor(maxTokens)) + 1);
}

/**
 * Whether estimate(text) ≤ maxTokens. For estimateTokens itself the walk stops at the first character over the limit,
 * so asking about a 500,000-character file and a budget of a thousand tokens costs a thousand tokens' worth.
 */
export function fitsWithin(text: string, maxTokens: number, estimate: (t: string) => number = estimateTokens): boolean {
  if (estimate !== estimateTokens) return estimate(text) <= maxTokens;
  if (!(maxTokens >= 0)) return false;
  // Estimates are whole tokens, so a fractional limit is its floor (prefixWithinTokens compares units).
  return prefixWithinTokens(text, Math.floor(maxTokens)) === text.length;
}

/**
 * The length of the longest prefix of `text` that estimateTokens counts at most `maxTokens`, in one pass: the
 * estimate of a prefix never decreases as it grows, so the walk stops at the first character that takes it over.
 * (A search by halving would count a dozen prefixes of the text.)
 */
export function prefixWithinTokens(text: string, maxTokens: number): number {
  if (maxTokens < 0) return 0;
  const end = -walk(text, maxTokens * UNIT) - 1;
  return end < 0 ? text.length : end;
}

/**
 * The one walk behind both: the cost in units of the whole text, or, once the cost of text.slice(0, i + 1) goes
 * above `limitUnits`, -(i + 1) (the longest prefix within the limit is i characters long).
 */
function walk(text: string, limitUnits: number): number {
  const limited = limitUnits !== Infinity;
  let total = 0;
  let run = NO_RUN;
  let runUnits = 0;
  let runLength = 0;
  let runFirst = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let kind: number;
    let cost: number;
    if (isSpace(c)) {
      kind = SPACE_RUN;
      cost = SPACE;
    } else if (c >= 0x30 && c <= 0x39) {
      kind = DIGIT_RUN;
      cost = DIGIT;
    } else if ((cost = letterCost(c)) > 0) {
      kind = WORD_RUN;
    } else if (c >= 0x21 && c <= 0x7e) {
      kind = PUNCT_RUN;
      cost = ASCII_PUNCT;
    } else {
      // Characters that stand alone: they end the current run and cost a fixed amount each.
      total += runCost(run, runUnits, runLength, runFirst);
      run = NO_RUN;
      if (c >= 0xd800 && c <= 0xdfff) total += SURROGATE_HALF;
      else total += isCjk(c) ? CJK : OTHER;
      if (limited && total > limitUnits) return -(i + 1);
      continue;
    }
    if (kind !== run) {
      total += runCost(run, runUnits, runLength, runFirst);
      run = kind;
      runUnits = 0;
      runLength = 0;
      runFirst = c;
    }
    runUnits += cost;
    runLength++;
    if (limited && total + runCost(run, runUnits, runLength, runFirst) > limitUnits) return -(i + 1);
  }
  return total + runCost(run, runUnits, runLength, runFirst);
}

export const CALIBRATION_RATIO_MIN = 0.5;
export const CALIBRATION_RATIO_MAX = 2.0;
/**
 * Observations whose actual/estimated ratio falls outside [MIN / 2, MAX * 2] are not measurements of the
 * tokenizer: Ollama versions have reported only the uncached part of the prompt, or omitted the count, after
 * a KV-cache hit (ollama/ollama#2068, #3427), and a truncated context reports what fit in num_ctx. They are ignored.
 */
const PLAUSIBLE_MIN = CALIBRATION_RATIO_MIN / 2;
const PLAUSIBLE_MAX = CALIBRATION_RATIO_MAX * 2;
/** Below this, fixed chat-template tokens dominate actual counts and the ratio says little about the text. */
const MIN_OBSERVED_ESTIMATE = 32;
const DEFAULT_SMOOTHING = 0.2;

export interface TokenCalibratorOptions {
  /** A ratio persisted from an earlier session; clamped to the bounds. Default 1. */
  initialRatio?: number;
  /** Weight of each new observation in (0, 1]. Default 0.2: one extreme sample moves the ratio by at most ×2^0.2. */
  smoothing?: number;
}

export interface TokenCalibrator {
  /** actual / estimated as currently learned, always within [CALIBRATION_RATIO_MIN, CALIBRATION_RATIO_MAX]. */
  readonly ratio: number;
  /**
   * Feeds one request: `estimated` = estimateTokens of the whole prompt as sent (template overhead included if the
   * caller adds it), `actual` = Ollama's prompt_eval_count. Returns false when the pair was ignored as implausible.
   */
  observe(estimated: number, actual: number): boolean;
  /** `estimate` scaled by the learned ratio, rounded up. */
  calibrated(estimate: number): number;
}

function clampRatio(r: number): number {
  return Math.min(CALIBRATION_RATIO_MAX, Math.max(CALIBRATION_RATIO_MIN, r));
}

export function createTokenCalibrator(opts: TokenCalibratorOptions = {}): TokenCalibrator {
  const initial = opts.initialRatio;
  let ratio = initial !== undefined && Number.isFinite(initial) ? clampRatio(initial) : 1;
  const s = opts.smoothing;
  const smoothing = s !== undefined && Number.isFinite(s) && s > 0 ? Math.min(1, s) : DEFAULT_SMOOTHING;

  return {
    get ratio() {
      return ratio;
    },
    observe(estimated, actual) {
      if (!Number.isFinite(estimated) || !Number.isFinite(actual)) return false;
      if (estimated < MIN_OBSERVED_ESTIMATE || actual <= 0) return false;
      const sample = actual / estimated;
      if (sample < PLAUSIBLE_MIN || sample > PLAUSIBLE_MAX) return false;
      // Averaging in log space treats "half as many" and "twice as many" symmetrically.
      const next = Math.exp((1 - smoothing) * Math.log(ratio) + smoothing * Math.log(clampRatio(sample)));
      ratio = clampRatio(next);
      return true;
    },
    calibrated(estimate) {
      if (!Number.isFinite(estimate) || estimate <= 0) return 0;
      return Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(estimate * ratio));
    },
  };
}
