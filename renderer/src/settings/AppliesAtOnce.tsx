/**
 * The mark of a setting saved the moment it is changed (InstantSwitch, the learning schedule, language and theme), in
 * a view where the form's other fields wait for "Save changes": one mark, worded once, beside every such control, so a
 * user can tell the two kinds apart without trying. Marked rather than moved into the form: these are choices a user
 * makes to see their effect (the status bar, the page's language), and each already says its own failure.
 */
import { useT } from '../i18n/use-t';

export function AppliesAtOnce() {
  const t = useT();
  return <span className="badge applies-at-once">{t('settings.appliesAtOnce')}</span>;
}
