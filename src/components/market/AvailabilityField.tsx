import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { WEEKDAYS, parseAvailability, type Weekday } from '../../../contract/ad-extras';
import type { HoursRow, HoursRows } from './adForm';
import { dayLabel } from './labels';
import styles from './market.module.css';

interface Props {
  rows: HoursRows;
  onChange: (rows: HoursRows) => void;
  error?: string | null;
  /** Mark the days that break a rule (after a submit). */
  showLineErrors?: boolean;
}

const dayProblem = (day: Weekday, h: HoursRow) => h.on && !parseAvailability({ [day]: { from: h.from, to: h.to } });

/** Hours by weekday: a tick for each day available, with its start and end time. Optional. */
export function AvailabilityField({ rows, onChange, error, showLineErrors }: Props) {
  const { t } = useTranslation('market');
  const id = useId();
  const set = (day: Weekday, patch: Partial<HoursRow>) => onChange({ ...rows, [day]: { ...rows[day], ...patch } });

  return (
    <fieldset className={`field ${styles.fieldset}`} aria-describedby={`${id}-hint${error ? ` ${id}-e` : ''}`}>
      <legend>{t('form.hours')}</legend>
      <small id={`${id}-hint`}>{t('form.hoursHint')}</small>
      <ul className={styles.lines}>
        {WEEKDAYS.map((day) => {
          const h = rows[day];
          const name = dayLabel(t, day);
          const bad = showLineErrors && dayProblem(day, h);
          return (
            <li key={day} className={styles.row}>
              <label className={`${styles.row} ${styles.dayName}`}>
                <input type="checkbox" checked={h.on} onChange={(e) => set(day, { on: e.target.checked })} />
                {name}
              </label>
              <input
                type="time"
                aria-label={t('form.hoursFrom', { day: name })}
                value={h.from}
                disabled={!h.on}
                onChange={(e) => set(day, { from: e.target.value })}
                aria-invalid={bad || undefined}
              />
              <span aria-hidden="true">–</span>
              <input
                type="time"
                aria-label={t('form.hoursTo', { day: name })}
                value={h.to}
                disabled={!h.on}
                onChange={(e) => set(day, { to: e.target.value })}
                aria-invalid={bad || undefined}
              />
            </li>
          );
        })}
      </ul>
      {error && (
        <span id={`${id}-e`} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}
