import { CATEGORIES } from './memory-query';
import { useT } from '../i18n/use-t';

/** The four memory categories as translated <option>s, for every category <select>. */
export function CategoryOptions() {
  const t = useT();
  return (
    <>
      {CATEGORIES.map((c) => (
        <option key={c} value={c}>
          {t(`category.${c}`)}
        </option>
      ))}
    </>
  );
}
