import { errorText, type CoreFailure } from '../i18n/error-text';
import { useT } from '../i18n/use-t';

/**
 * A failure from the core: the catalog's sentence for its code in the UI's language, and the core's own (English)
 * words folded under "Details". Inline: it sits in banners, field errors and alerts, whose container has the role.
 */
export function CoreError({ error }: { error: CoreFailure }) {
  const t = useT();
  const { key, params, detail } = errorText(error);
  return (
    <>
      <span className="core-error-text">{t(key, params)}</span>
      {detail && (
        <details className="notice-details small">
          <summary>{t('error.details')}</summary>
          <span lang="en">{detail}</span>
        </details>
      )}
    </>
  );
}
