import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { checkPassword } from '../../../contract/rules';
import { sessionApi } from '../../api/session';
import { routes } from '../../app/routes';
import { PasswordField } from '../../components/forms/PasswordField';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { AuthCard } from './AuthCard';

/** The page the reset e-mail links to: a new password for the token in the URL (once, within the hour). */
export default function ResetPassword() {
  const { t } = useTranslation(['auth', 'validation']);
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [tried, setTried] = useState(false);
  const [done, setDone] = useState(false);
  const action = useFormAction();
  const rule = checkPassword(password);
  const mismatch = repeat !== password;

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setTried(true);
    if (rule || mismatch) {
      document.getElementById(rule ? 'reset-password' : 'reset-repeat')?.focus();
      return;
    }
    const ok = await action.run(async () => (await sessionApi.resetPassword({ token, newPassword: password }), true));
    if (ok) setDone(true);
  }

  return (
    <AuthCard title={t('reset.title')}>
      {!token ? (
        <div role="alert" className="alert alert-error">
          {t('reset.missingToken')}
        </div>
      ) : done ? (
        // Takes focus: the pressed button is gone with the form, and a screen reader reads the outcome.
        <FormSuccess message={t('reset.done')} focus />
      ) : (
        <form noValidate onSubmit={onSubmit}>
          <FormError message={action.error} />
          <PasswordField
            id="reset-password"
            label={t('reset.newPassword')}
            autoComplete="new-password"
            required
            value={password}
            error={tried && rule ? t(`validation:${rule}`) : null}
            onChange={setPassword}
          />
          <PasswordField
            id="reset-repeat"
            label={t('reset.repeat')}
            autoComplete="new-password"
            required
            value={repeat}
            error={tried && !rule && mismatch ? t('reset.mismatch') : null}
            onChange={setRepeat}
          />
          <SubmitButton busy={action.busy} block>
            {t('reset.submit')}
          </SubmitButton>
        </form>
      )}
      <p>{done || !token ? <Link href={done ? routes.login : routes.forgotPassword}>{done ? t('reset.toLogin') : t('reset.askAgain')}</Link> : null}</p>
    </AuthCard>
  );
}
