/**
 * Why semantic search is off: one sentence in the UI's language saying what to do (status/embedding-reason.ts), and
 * the core's own words, which name the model's folder, its missing files or the command, folded under "Technical
 * details" for whoever needs them.
 */
import type { EmbeddingStatus } from '../../../shared/contract';
import { embeddingOffSentence, type ReasonPlace } from './embedding-reason';
import { useStatusStore } from './status.store';
import { useT } from '../i18n/use-t';

export function EmbeddingOffReason({ status, place = 'elsewhere' }: { status: EmbeddingStatus; place?: ReasonPlace }) {
  const t = useT();
  const server = useStatusStore((s) => s.models?.api === 'openai');
  const { key, params } = embeddingOffSentence(status, server, place, t);
  return (
    <>
      <span className="block">{t(key, params)}</span>
      {status.message && (
        <details className="notice-details small">
          <summary>{t('semantic.details')}</summary>
          <span lang="en">{status.message}</span>
        </details>
      )}
    </>
  );
}
