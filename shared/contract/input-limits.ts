/**
 * The contract's largest inputs, and the one request size a host derives from them. The schemas (chat, thread and
 * memory contracts) read their maxima from here, and the web host caps request bodies at REQUEST_BODY_MAX_BYTES, so
 * no input the contract accepts is refused for its size: test/unit/input-limits.test.ts walks every operation's
 * input schema and checks that its largest valid input fits.
 */

/** Limits on attached files: the text is extracted on the user's side (renderer) before it reaches the core. */
export const ATTACHMENT_LIMITS = { maxFiles: 5, maxNameChars: 255, maxTextChars: 500_000 } as const;

/** A chat message (chat.send, chat.edit), in characters (UTF-16 code units, as zod counts). */
export const MESSAGE_MAX_CHARS = 100_000;

/** A whole file given to thread.import or memory.import, in characters: the largest single input of the contract. */
export const IMPORT_MAX_CHARS = 50_000_000;
export const IMPORT_TOO_LONG_MESSAGE = `An import is at most ${IMPORT_MAX_CHARS / 1_000_000} million characters; split the file.`;

/**
 * The most UTF-8 bytes JSON.stringify writes for one character (UTF-16 code unit) of a string: 6, for a control
 * character written as \u001f or a lone surrogate as \udc00 (a character outside the BMP is two code units, 4 bytes).
 */
export const JSON_BYTES_PER_CHAR_AT_MOST = 6;

/** Room for everything in a request besides its largest string: the other fields, their names, JSON's punctuation. */
const REQUEST_OTHER_FIELDS_BYTES = 64 * 1024;

/**
 * The largest request body a host must accept: an import of IMPORT_MAX_CHARS characters, each written the longest
 * way JSON can write it (about 300 MB). Any other operation's largest input is far smaller (five attachments of
 * 500,000 characters and a message of 100,000 are 2.6 million characters).
 */
export const REQUEST_BODY_MAX_BYTES = IMPORT_MAX_CHARS * JSON_BYTES_PER_CHAR_AT_MOST + REQUEST_OTHER_FIELDS_BYTES;
