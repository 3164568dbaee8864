import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkNewEmail, normalizeEmail } from '../../../../contract/rules';
import { requestEmailChange } from '../../../state/profile';
import { TextField } from '../../../components/forms/TextField';
import { PasswordField } from '../../../components/forms/PasswordField';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';

/** Asks for a change of e-mail: it takes effect only once the link sent to the new address is followed. */
export function EmailForm({ current }: { current: string }) {
  const { t } = useTranslation(['profile', 'validation']);
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const action = useFormAction();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // As the server reads it: "ａｎｎ＠ｅｘａｍｐｌｅ．ｎｅｔ" (an IME in fullwidth mode) is ann@example.net.
    const email = normalizeEmail(newEmail);
    const key = checkNewEmail(email);
    const same = !key && email === normalizeEmail(current);
    const found = {
      email: key ? t(`validation:${key}`) : same ? t('email.same') : null,
      password: password ? null : t('email.passwordRequired'),
    };
    setErrors(found);
    if (found.email || found.password) return document.getElementById(found.email ? 'email-new' : 'email-password')?.focus();
    const ok = await action.run(
      async () => {
        await requestEmailChange(email, password);
        return true;
      },
      t('email.sent', { email }),
    );
    if (ok) setPassword('');
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="email-title" className="card">
      <h2 id="email-title">{t('email.title')}</h2>
      <p>{t('email.explain')}</p>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      <TextField
        id="email-new"
        label={t('email.newEmail')}
        type="email"
        inputMode="email"
        autoComplete="email"
        required
        value={newEmail}
        error={errors.email}
        onChange={setNewEmail}
      />
      <PasswordField
        id="email-password"
        label={t('email.password')}
        autoComplete="current-password"
        required
        value={password}
        error={errors.password}
        onChange={setPassword}
      />
      <SubmitButton busy={action.busy} busyLabel={t('saving')}>
        {t('email.submit')}
      </SubmitButton>
    </form>
  );
}
