import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { checkEmail, normalizeEmail } from '../../../contract/rules';
import { sessionApi } from '../../api/session';
import { routes } from '../../app/routes';
import { TextField } from '../../components/forms/TextField';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { AuthCard } from './AuthCard';

/** "Forgot password?": asks for the account's e-mail; the answer is the same whether or not it has an account. */
export default function ForgotPassword() {
  const { t } = useTranslation(['auth', 'validation']);
  const [email, setEmail] = useState('');
  const [tried, setTried] = useState(false);
  const [sent, setSent] = useState(false);
  const action = useFormAction();
  // The address as the server reads it (NFKC: fullwidth letters from an IME are plain ones).
  const address = normalizeEmail(email);
  const rule = checkEmail(address);

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setTried(true);
    if (rule) {
      document.getElementById('forgot-email')?.focus();
      return;
    }
    const ok = await action.run(async () => (await sessionApi.requestPasswordReset({ email: address }), true));
    if (ok) setSent(true);
  }

  return (
    <AuthCard title={t('forgot.title')}>
      {sent ? (
        // Takes focus: the pressed button is gone with the form, and a screen reader reads the outcome.
        <FormSuccess message={t('forgot.sent', { email: address })} focus />
      ) : (
        <form noValidate onSubmit={onSubmit}>
          <p>{t('forgot.intro')}</p>
          <FormError message={action.error} />
          <TextField
            id="forgot-email"
            label={t('email')}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            value={email}
            error={tried && rule ? t(`validation:${rule}`) : null}
            onChange={setEmail}
          />
          <SubmitButton busy={action.busy} block>
            {t('forgot.submit')}
          </SubmitButton>
        </form>
      )}
      <p>
        <Link href={routes.login}>{t('forgot.backToLogin')}</Link>
      </p>
    </AuthCard>
  );
}
