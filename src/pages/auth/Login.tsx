import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN, checkEmail, normalizeEmail } from '../../../contract/rules';
import { login } from '../../state/session';
import { routes } from '../../app/routes';
import { TextField } from '../../components/forms/TextField';
import { PasswordField } from '../../components/forms/PasswordField';
import { FormError } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { AuthCard } from './AuthCard';
import { redirectFromSearch } from './redirect';

type Errors = { email?: string | null; password?: string | null };

export default function Login() {
  const { t } = useTranslation(['auth', 'validation']);
  const [, navigate] = useLocation();
  const search = useSearch();
  const redirect = redirectFromSearch(search);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const action = useFormAction();

  const validate = (e = email, p = password): Errors => {
    // As the server reads it: "ｋｉｍ＠ｅｘａｍｐｌｅ．ｃｏｍ" (an IME in fullwidth mode) is kim@example.com.
    const emailKey = checkEmail(normalizeEmail(e));
    // Not the rules of a new password: a password chosen when they counted otherwise (five emoji were
    // ten UTF-16 units) must still sign in. Shorter than every password ever accepted is a typo.
    const passwordKey = p.length < PASSWORD_MIN ? 'passwordTooShort' : null;
    return { email: emailKey && t(`validation:${emailKey}`), password: passwordKey && t(`validation:${passwordKey}`) };
  };

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setTried(true);
    const found = validate();
    setErrors(found);
    if (found.email || found.password) {
      document.getElementById(found.email ? 'login-email' : 'login-password')?.focus();
      return;
    }
    const session = await action.run(() => login(normalizeEmail(email), password));
    // The redirect holds the full path (locale prefix included), so it is followed from the root.
    if (session) navigate(redirect ? `~${redirect}` : routes.dashboard, { replace: true });
  }

  return (
    <AuthCard title={t('login.title')}>
      <form noValidate onSubmit={onSubmit}>
        <FormError message={action.error} />
        <TextField
          id="login-email"
          label={t('email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={email}
          error={errors.email}
          onChange={(v) => {
            setEmail(v);
            if (tried) setErrors(validate(v, password));
          }}
        />
        <PasswordField
          id="login-password"
          label={t('password')}
          autoComplete="current-password"
          required
          value={password}
          error={errors.password}
          onChange={(v) => {
            setPassword(v);
            if (tried) setErrors(validate(email, v));
          }}
        />
        <SubmitButton busy={action.busy} busyLabel={t('login.sending')} block>
          {t('login.submit')}
        </SubmitButton>
      </form>
      <p>
        <Link href={routes.forgotPassword}>{t('forgot.link')}</Link>
      </p>
      <p>
        {t('login.noAccount')}{' '}
        <Link href={redirect ? `${routes.register}?redirect=${encodeURIComponent(redirect)}` : routes.register}>{t('login.registerLink')}</Link>
      </p>
    </AuthCard>
  );
}
