import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';
import { TextField } from '../forms/TextField';
import { TextAreaField } from '../forms/TextAreaField';
import { FormError, FormSuccess } from '../forms/FormError';
import { SubmitButton } from '../forms/SubmitButton';
import { useFormAction } from '../forms/useFormAction';
import { adsApi } from '../../api/ads';
import styles from './market.module.css';

export const REPORT_MIN = 10;
export const REPORT_MAX = 5000; // the server's limits (reports.service.ts)

/**
 * Anyone may report an ad (no sign-in): a message, an optional way to reach them, and a box for a
 * person who may be a minor or trafficked (filed as a trafficking tip about the ad, urgent for staff).
 */
export function ReportDialog({ adId, onClose }: { adId: string; onClose: () => void }) {
  const { t } = useTranslation('market');
  const [message, setMessage] = useState('');
  const [contact, setContact] = useState('');
  const [urgent, setUrgent] = useState(false);
  const [touched, setTouched] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useFormAction();
  const len = message.trim().length;
  const messageError = len < REPORT_MIN || len > REPORT_MAX ? t('report.messageRule', { min: REPORT_MIN, max: REPORT_MAX }) : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (messageError) return;
    const ok = await form.run(async () => {
      await adsApi.report(adId, {
        message: message.trim(),
        ...(contact.trim() ? { contact: contact.trim() } : {}),
        ...(urgent ? { urgent: true } : {}),
      });
      return true;
    });
    if (ok) setSent(true);
  }

  return (
    <Dialog title={t('report.title')} onClose={onClose}>
      {sent ? (
        <>
          {/* Focus moves to the message: the Send button pressed is gone, and the dialog hears Escape only from within. */}
          <FormSuccess message={t('report.sent')} focus />
          <div className={styles.actions}>
            <button type="button" className="btn btn-primary" onClick={onClose}>
              {t('close')}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <p>{t('report.intro')}</p>
          <TextAreaField
            id="report-message"
            label={t('report.message')}
            rows={5}
            value={message}
            maxLength={REPORT_MAX}
            onChange={setMessage}
            hint={t('report.messageRule', { min: REPORT_MIN, max: REPORT_MAX })}
            hintIsError={touched && !!messageError}
          />
          <TextField label={t('report.contact')} value={contact} onChange={setContact} maxLength={254} hint={t('report.contactHint')} />
          <label className={styles.row}>
            <input type="checkbox" checked={urgent} onChange={(e) => setUrgent(e.target.checked)} />
            {t('report.urgent')}
          </label>
          <FormError message={form.error} />
          <div className={styles.actions}>
            <button type="button" className="btn btn-white" onClick={onClose}>
              {t('cancel')}
            </button>
            <SubmitButton busy={form.busy} variant="danger">
              {t('report.send')}
            </SubmitButton>
          </div>
        </form>
      )}
    </Dialog>
  );
}
