import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { Trans, useTranslation } from 'react-i18next';
import { checkNewEmail, checkNickname, checkPassword, normalizeEmail } from '../../../contract/rules';
import { register } from '../../state/session';
import { routes } from '../../app/routes';
import { TextField } from '../../components/forms/TextField';
import { PasswordField } from '../../components/forms/PasswordField';
import { FormError } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { AuthCard } from './AuthCard';
import { redirectFromSearch } from './redirect';

type Fields = { email: string; nickname: string; password: string; confirm: string };
type Errors = Partial<Record<keyof Fields, string | null>>;
const ORDER: Array<keyof Fields> = ['email', 'nickname', 'password', 'confirm'];

export default function Register() {
  const { t } = useTranslation(['auth', 'validation']);
  const [, navigate] = useLocation();
  const redirect = redirectFromSearch(useSearch());
  const [fields, setFields] = useState<Fields>({ email: '', nickname: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [tried, setTried] = useState(false);
  const action = useFormAction();

  const validate = (f: Fields): Errors => {
    const v = (key: string | null) => key && t(`validation:${key}`);
    return {
      // The address as the server reads and stores it (NFKC, lower case), not the text as typed.
      email: v(checkNewEmail(normalizeEmail(f.email))),
      nickname: v(checkNickname(f.nickname.trim())),
      password: v(checkPassword(f.password, normalizeEmail(f.email))),
      confirm: f.confirm !== f.password ? t('passwordsDiffer') : null,
    };
  };
  const set = (k: keyof Fields) => (value: string) => {
    const next = { ...fields, [k]: value };
    setFields(next);
    if (tried) setErrors(validate(next));
  };

  async function onSubmit(ev: FormEvent) {
    ev.preventDefault();
    setTried(true);
    const found = validate(fields);
    setErrors(found);
    const bad = ORDER.find((k) => found[k]);
    if (bad) {
      document.getElementById(`register-${bad}`)?.focus();
      return;
    }
    const session = await action.run(() => register(normalizeEmail(fields.email), fields.password, fields.nickname.trim()));
    if (session) navigate(redirect ? `~${redirect}` : routes.dashboard, { replace: true });
  }

  return (
    <AuthCard title={t('register.title')}>
      <form noValidate onSubmit={onSubmit}>
        <FormError message={action.error} />
        <TextField
          id="register-email"
          label={t('email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          value={fields.email}
          error={errors.email}
          onChange={set('email')}
        />
        <TextField
          id="register-nickname"
          label={t('nickname')}
          autoComplete="nickname"
          autoCapitalize="off"
          spellCheck={false}
          required
          maxLength={30}
          hint={t('nicknameHint')}
          value={fields.nickname}
          error={errors.nickname}
          onChange={set('nickname')}
        />
        <PasswordField
          id="register-password"
          label={t('password')}
          autoComplete="new-password"
          required
          hint={t('passwordHint')}
          value={fields.password}
          error={errors.password}
          onChange={set('password')}
        />
        <PasswordField
          id="register-confirm"
          label={t('confirmPassword')}
          autoComplete="new-password"
          required
          value={fields.confirm}
          error={errors.confirm}
          onChange={set('confirm')}
        />
        <p style={{ fontSize: 13 }}>
          <Trans t={t} i18nKey="register.terms" components={{ terms: <Link href={routes.terms} />, agreement: <Link href={routes.agreement} /> }} />
        </p>
        <SubmitButton busy={action.busy} busyLabel={t('register.sending')} block>
          {t('register.submit')}
        </SubmitButton>
      </form>
      <p>
        {t('register.haveAccount')}{' '}
        <Link href={redirect ? `${routes.login}?redirect=${encodeURIComponent(redirect)}` : routes.login}>{t('register.loginLink')}</Link>
      </p>
    </AuthCard>
  );
}
