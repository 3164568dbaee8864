import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RATE_LINES_MAX } from '../../../contract/ad-extras';
import { RATE_DURATIONS, RULES, rateRowProblem, type RateRow } from './adForm';
import { durationLabel } from './labels';
import { useFocusAfterRemoval } from '../../lib/focus-after-removal';
import { usdSign } from '../../lib/money';
import styles from './market.module.css';

interface Props {
  rows: RateRow[];
  onChange: (rows: RateRow[]) => void;
  /** The field's error (shown once the form was submitted). */
  error?: string | null;
  /** Mark the lines that break a rule (after a submit). */
  showLineErrors?: boolean;
}

/** Up to five lines of a duration and its price; each line can be removed. Optional. */
export function RatesField({ rows, onChange, error, showLineErrors }: Props) {
  const { t, i18n } = useTranslation('market');
  const id = useId();
  // The dollar sign where the page's language writes it: '$ 150' in English, 'US$ 150' in Portuguese, '150 US$' in Spanish.
  const usd = usdSign(i18n.language);
  const sign = <span aria-hidden="true">{usd.sign}</span>;
  const set = (i: number, patch: Partial<RateRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const used = new Set(rows.map((r) => r.minutes));
  const next = RATE_DURATIONS.find((m) => !used.has(String(m)));
  // A line's Remove button leaves with its line: focus goes to the next or previous line's Remove, else to "Add a rate".
  const add = useRef<HTMLButtonElement>(null);
  const { list, removed } = useFocusAfterRemoval<HTMLOListElement>(rows, add);
  const remove = (i: number) => {
    removed(i);
    onChange(rows.filter((_, j) => j !== i));
  };

  return (
    <fieldset className={`field ${styles.fieldset}`} aria-describedby={`${id}-hint${error ? ` ${id}-e` : ''}`}>
      <legend>{t('form.rates')}</legend>
      <small id={`${id}-hint`}>{t(RULES.rates.key, RULES.rates.values)}</small>
      {rows.length > 0 && (
        <ol ref={list} className={styles.lines}>
          {rows.map((r, i) => {
            const n = i + 1;
            const bad = showLineErrors && rateRowProblem(rows, i) !== null;
            // The ad's own duration stays offered even when it is not one of the usual ones.
            const options =
              RATE_DURATIONS.includes(Number(r.minutes)) || !r.minutes ? RATE_DURATIONS : [...RATE_DURATIONS, Number(r.minutes)].sort((a, b) => a - b);
            return (
              <li key={i} className={styles.row}>
                <select
                  aria-label={t('form.rateDuration', { n })}
                  value={r.minutes}
                  onChange={(e) => set(i, { minutes: e.target.value })}
                  aria-invalid={bad || undefined}
                >
                  <option value="">{t('form.chooseDuration')}</option>
                  {options.map((m) => (
                    <option key={m} value={String(m)}>
                      {durationLabel(t, m)}
                    </option>
                  ))}
                </select>
                <span className={styles.money}>
                  {!usd.after && sign}
                  <input
                    type="text"
                    inputMode="decimal"
                    aria-label={t('form.ratePrice', { n })}
                    value={r.price}
                    onChange={(e) => set(i, { price: e.target.value })}
                    aria-invalid={bad || undefined}
                    size={9}
                  />
                  {usd.after && sign}
                </span>
                <button type="button" className="btn btn-sm btn-white" aria-label={t('form.removeRate', { n })} data-remove onClick={() => remove(i)}>
                  {t('form.remove')}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <button
        ref={add}
        type="button"
        className="btn btn-sm btn-white"
        disabled={rows.length >= RATE_LINES_MAX}
        onClick={() => onChange([...rows, { minutes: next ? String(next) : '', price: '' }])}
      >
        {t('form.addRate')}
      </button>
      {error && (
        <span id={`${id}-e`} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}
