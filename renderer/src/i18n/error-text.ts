/**
 * A failure from the core as the user reads it, in the UI's language. The core's messages are English and name the
 * host, the model, the field or the file: the sentence shown comes from the catalogs by the error's code (what
 * happened, what to do), and the core's own words stay at hand as a detail, folded, for whoever needs them.
 */
import type { ErrorInfo } from '../../../shared/errors';
import { isErrorCodeKey, translate, type MessageKey, type Params } from './i18n';

export interface ErrorText {
  key: MessageKey;
  params?: Params;
  /** The core's words, when they say more than the sentence shown; null when they would only repeat it. */
  detail: string | null;
}

/** An error as the core sends it; its code is a plain string here, since a message row keeps it (and a newer core may send one this renderer does not know). */
export type CoreFailure = Pick<ErrorInfo, 'message' | 'details'> & { code: string };

export function errorText(error: CoreFailure): ErrorText {
  const duplicateOf = error.code === 'CONFLICT' ? error.details?.memoryId : undefined;
  const { key, params }: { key: MessageKey; params?: Params } =
    typeof duplicateOf === 'number'
      ? { key: 'error.duplicateMemory', params: { id: duplicateOf } }
      : // A code this renderer does not know (a newer core): the general sentence, the core's words under it.
        { key: isErrorCodeKey(error.code) ? `errorCode.${error.code}` : 'error.generic' };
  const message = error.message.trim();
  const detail = message && message !== translate('en', key, params) ? message : null;
  return { key, ...(params ? { params } : {}), detail };
}
