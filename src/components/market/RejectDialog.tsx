import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { TextAreaField } from '../forms/TextAreaField';
import { SubmitButton } from '../forms/SubmitButton';
import { REJECTION_CATEGORIES } from '../../api/moderation';
import type { RejectionCategory } from '../../api/admin-ads';
import styles from './market.module.css';

export const REASON_MIN = 3;
export const REASON_MAX = 500;

/** Asks for the reason the owner will see when ads are rejected, and its category (counted by the transparency report). */
export function RejectDialog({
  count,
  busy,
  error,
  onConfirm,
  onCancel,
}: {
  count: number;
  busy: boolean;
  error: string | null;
  onConfirm: (reason: string, category: RejectionCategory) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['admin', 'moderation']);
  const [reason, setReason] = useState('');
  const [category, setCategory] = useState<RejectionCategory>('other');
  const [tried, setTried] = useState(false);
  const bad = reason.trim().length < REASON_MIN || reason.trim().length > REASON_MAX;

  function submit(e: FormEvent) {
    e.preventDefault();
    // The reason field says what is wrong (invalid, described by its rule), rendered so before it
    // takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    if (bad) document.getElementById('reject-reason')?.focus();
    else onConfirm(reason.trim(), category);
  }

  return (
    <Dialog title={t('pending.rejectTitle', { count })} onClose={onCancel}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="reject-category">{t('moderation:reject.category')}</label>
          <select id="reject-category" value={category} onChange={(e) => setCategory(e.target.value as RejectionCategory)}>
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
          maxLength={REASON_MAX}
          onChange={setReason}
          hint={t('pending.reasonRule', { min: REASON_MIN, max: REASON_MAX })}
          hintIsError={tried && bad}
        />
        {error && (
          <div role="alert" className="alert alert-error">
            {error}
          </div>
        )}
        <div className={styles.actions}>
          <button type="button" className="btn btn-white" onClick={onCancel}>
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
