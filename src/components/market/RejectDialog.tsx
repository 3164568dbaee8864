import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { TextAreaField } from '../forms/TextAreaField';
import { SubmitButton } from '../forms/SubmitButton';
import { REJECTION_CATEGORIES } from '../../api/moderation';
import type { RejectionCategory } from '../../api/admin-ads';
import { useKeptFields } from '../moderation/useKeptFields';
import styles from './market.module.css';

export const REASON_MIN = 3;
export const REASON_MAX = 500;

const EMPTY = { reason: '', category: 'other' };
const typed = (f: typeof EMPTY) => f.reason.trim() !== '';
const isCategory = (c: string): c is RejectionCategory => (REJECTION_CATEGORIES as readonly string[]).includes(c);

/**
 * Asks for the reason the owner will see when ads are rejected, and its category (counted by the
 * transparency report). Given the ads (`adIds`), what is typed is kept in the tab until it is sent
 * or the dialog is left through Cancel (useKeptFields): Escape, a click beside the dialog or a
 * session that ends on the way do not lose it. A reason pasted over the limit stays whole, and
 * says it is too long.
 */
export function RejectDialog({
  count,
  adIds,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  count: number;
  /** The ads being rejected: the reason typed for them is kept until sent. */
  adIds?: readonly string[];
  busy: boolean;
  error: string | null;
  onConfirm: (reason: string, category: RejectionCategory) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['admin', 'moderation']);
  const kept = useKeptFields(adIds?.length ? `reject:${[...adIds].sort().join(',')}` : undefined, EMPTY, typed, { busy, error });
  const { reason } = kept.fields;
  const category = isCategory(kept.fields.category) ? kept.fields.category : 'other';
  const [tried, setTried] = useState(false);
  const tooLong = reason.trim().length > REASON_MAX;
  const bad = reason.trim().length < REASON_MIN || tooLong;

  function submit(e: FormEvent) {
    e.preventDefault();
    // The reason field says what is wrong (invalid, described by its rule), rendered so before it
    // takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    if (bad) document.getElementById('reject-reason')?.focus();
    else {
      kept.confirmed();
      onConfirm(reason.trim(), category);
    }
  }

  function cancel() {
    kept.cancelled();
    onCancel();
  }

  return (
    <Dialog title={t('pending.rejectTitle', { count })} onClose={onCancel}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="reject-category">{t('moderation:reject.category')}</label>
          <select id="reject-category" value={category} onChange={(e) => kept.set({ category: e.target.value })}>
            {REJECTION_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`moderation:categories.${c}`)}
              </option>
            ))}
          </select>
        </div>
        <TextAreaField
          id="reject-reason"
          label={t('pending.reason')}
          rows={4}
          value={reason}
          // Room over the limit (as the ad title's field): a longer paste is kept whole, and the rule says it is too long.
          maxLength={2 * REASON_MAX}
          onChange={(x) => kept.set({ reason: x })}
          hint={t('pending.reasonRule', { min: REASON_MIN, max: REASON_MAX })}
          hintIsError={(tried && bad) || tooLong}
        />
        {error && (
          <div role="alert" className="alert alert-error">
            {error}
          </div>
        )}
        <div className={styles.actions}>
          <button type="button" className="btn btn-white" onClick={cancel}>
            {t('cancel')}
          </button>
          <SubmitButton busy={busy} variant="danger">
            {t('pending.rejectConfirm')}
          </SubmitButton>
        </div>
      </form>
    </Dialog>
  );
}
