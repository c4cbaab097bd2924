/**
 * A day typed in the app's language (format/day-text.ts), in place of the browser's date input, whose format follows
 * the browser's locale whatever language the app speaks. The value in and out is yyyy-mm-dd, '' for none, or, while
 * what is typed is not a day yet, that text as it is: the form can tell it is not a day (not yyyy-mm-dd) and hold
 * its Save, instead of saving the last day that was valid. The reason is said once the field is left.
 *
 * Beside it, a calendar button opens the browser's own date picker (a date input kept out of sight and out of the tab
 * order): a day can be picked as well as typed, and the pick is shown in the app's format like a typed one.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { dayTextFormat, formatDayText, isDay, parseDayText } from '../format/day-text';
import { useLanguage, useT } from '../i18n/use-t';
import { CalendarIcon } from './icons';

export function DayField({ id, label, value, onChange }: { id?: string; label?: string; value: string; onChange(value: string): void }) {
  const t = useT();
  const language = useLanguage();
  const errorId = useId();
  const [text, setText] = useState(() => formatDayText(value, language));
  const [editing, setEditing] = useState(false);
  // A value set from outside (a default day, Discard, another memory) or another UI language replaces what is shown.
  const shownIn = useRef(language);
  useEffect(() => {
    const sameLanguage = shownIn.current === language;
    shownIn.current = language;
    setText((shown) => (sameLanguage && (parseDayText(shown, language) ?? shown) === value ? shown : formatDayText(value, language)));
  }, [value, language]);

  const format = dayTextFormat(language, { year: t('date.letters.year'), month: t('date.letters.month'), day: t('date.letters.day') });
  // Judged on what is shown, so a form that keeps only days (the timeline's "as of") still says why it waits.
  const invalid = text.trim() !== '' && parseDayText(text, language) === null;
  const picker = useRef<HTMLInputElement>(null);
  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      input.click(); // a browser without showPicker, or one that refuses it here: the input's own way to open
    }
  };
  return (
    <>
      <span className="day-field-wrap">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          className="day-field"
          aria-label={label}
          placeholder={format}
          value={text}
          aria-invalid={invalid && !editing}
          aria-describedby={invalid && !editing ? errorId : undefined}
          onFocus={() => setEditing(true)}
          onBlur={() => {
            setEditing(false);
            const day = parseDayText(text, language);
            if (day !== null) setText(formatDayText(day, language));
          }}
          onChange={(e) => {
            setText(e.target.value);
            const typed = e.target.value.trim();
            onChange(typed === '' ? '' : (parseDayText(typed, language) ?? typed));
          }}
        />
        <button type="button" className="icon day-field-pick" aria-label={t('date.pick')} title={t('date.pick')} onClick={openPicker}>
          <CalendarIcon />
        </button>
        <input
          ref={picker}
          type="date"
          className="day-field-native"
          tabIndex={-1}
          aria-hidden="true"
          aria-label={t('date.pick')}
          value={isDay(value) ? value : ''}
          onChange={(e) => {
            const day = e.target.value;
            if (day !== '' && !isDay(day)) return;
            setText(formatDayText(day, language));
            onChange(day);
          }}
        />
      </span>
      {invalid && !editing && (
        <span id={errorId} className="field-error day-field-error">
          {t('date.invalid', { format, example: formatDayText('2026-12-31', language) })}
        </span>
      )}
    </>
  );
}
