import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeUsPhone } from '../../../../contract/rules';
import { askPhoneCode, confirmPhoneCode } from '../../../state/profile';
import { TextField } from '../../../components/forms/TextField';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';
import { PhoneVerifiedBadge } from '../../../components/public/Badges';

/** +12125550123 as (212) 555-0123. */
export function displayPhone(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

/**
 * The account's phone, verified by a 6-digit code sent by text message: first the number (a code
 * is texted), then the code. The server keeps the limits (10 minutes, five tries, three codes an
 * hour); its refusals show as the form's error.
 */
export function PhoneSection({ phone, verified }: { phone: string | null; verified: boolean }) {
  const { t } = useTranslation('sms');
  const [step, setStep] = useState<'number' | 'code'>('number');
  const [number, setNumber] = useState('');
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const action = useFormAction('sms');

  const focusCode = () => document.getElementById('profile-phone-code')?.focus();
  useEffect(() => {
    if (step === 'code') focusCode();
  }, [step]);

  async function onAsk(e: FormEvent) {
    e.preventDefault();
    const ok = normalizeUsPhone(number) !== null;
    setFieldError(ok ? null : t('phone.invalid'));
    if (!ok) return document.getElementById('profile-phone')?.focus();
    const sent = await action.run(() => askPhoneCode(number));
    if (!sent) return;
    setSentTo(sent.phone);
    setCode('');
    setStep('code');
    action.setSuccess((t) => t('phone.sent', { phone: displayPhone(sent.phone) }));
  }

  async function onConfirm(e: FormEvent) {
    e.preventDefault();
    const ok = /^\d{6}$/.test(code.trim());
    setFieldError(ok ? null : t('phone.codeInvalid'));
    if (!ok) return focusCode();
    const done = await action.run(
      async () => {
        await confirmPhoneCode(code);
        return true;
      },
      t('phone.done', { phone: displayPhone(sentTo ?? '') }),
    );
    if (!done) return;
    setStep('number');
    setNumber('');
    setCode('');
  }

  function startOver() {
    setStep('number');
    setFieldError(null);
    action.setError(null);
    action.setSuccess(null);
  }

  return (
    <section className="card" aria-labelledby="phone-title">
      <h2 id="phone-title">{t('phone.title')}</h2>
      <p>{t('phone.intro')}</p>
      <p data-testid="phone-state">
        {verified && phone ? (
          <>
            {t('phone.verified', { phone: displayPhone(phone) })} <PhoneVerifiedBadge />
          </>
        ) : (
          t('phone.none')
        )}
      </p>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      {step === 'number' ? (
        <form noValidate onSubmit={onAsk}>
          <TextField
            id="profile-phone"
            label={t('phone.label')}
            hint={t('phone.hint')}
            type="tel"
            autoComplete="tel"
            maxLength={40}
            required
            value={number}
            error={fieldError}
            onChange={setNumber}
          />
          <SubmitButton busy={action.busy} busyLabel={t('phone.sending')}>
            {t('phone.send')}
          </SubmitButton>
        </form>
      ) : (
        <form noValidate onSubmit={onConfirm}>
          <TextField
            id="profile-phone-code"
            label={t('phone.codeLabel')}
            hint={t('phone.codeHint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            required
            value={code}
            error={fieldError}
            onChange={setCode}
          />
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
            <SubmitButton busy={action.busy} busyLabel={t('phone.confirming')}>
              {t('phone.confirm')}
            </SubmitButton>
            <button type="button" className="btn btn-white" onClick={startOver} disabled={action.busy}>
              {t('phone.again')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
