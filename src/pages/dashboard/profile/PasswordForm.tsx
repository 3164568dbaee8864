import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { checkPassword } from '../../../../contract/rules';
import { updatePassword } from '../../../state/profile';
import { sessionStore } from '../../../state/session';
import { PasswordField } from '../../../components/forms/PasswordField';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';

type Errors = { current?: string | null; next?: string | null; confirm?: string | null };

export function PasswordForm() {
  const { t } = useTranslation(['profile', 'validation', 'auth']);
  const { session } = useSnapshot(sessionStore);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const action = useFormAction();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const nextKey = checkPassword(next, session.email);
    const found: Errors = {
      current: current ? null : t('password.currentRequired'),
      next: nextKey && t(`validation:${nextKey}`),
      confirm: confirm === next ? null : t('auth:passwordsDiffer'),
    };
    setErrors(found);
    const bad = (['current', 'next', 'confirm'] as const).find((k) => found[k]);
    if (bad) return document.getElementById(`password-${bad}`)?.focus();
    const ok = await action.run(async () => {
      await updatePassword(current, next);
      return true;
    }, t('password.saved'));
    if (ok) {
      setCurrent('');
      setNext('');
      setConfirm('');
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="password-title" className="card">
      <h2 id="password-title">{t('password.title')}</h2>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      {/* A hidden username lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={session.email ?? ''} readOnly hidden />
      <PasswordField
        id="password-current"
        label={t('password.current')}
        autoComplete="current-password"
        required
        value={current}
        error={errors.current}
        onChange={setCurrent}
      />
      <PasswordField
        id="password-next"
        label={t('password.next')}
        autoComplete="new-password"
        required
        hint={t('auth:passwordHint')}
        value={next}
        error={errors.next}
        onChange={setNext}
      />
      <PasswordField
        id="password-confirm"
        label={t('password.confirm')}
        autoComplete="new-password"
        required
        value={confirm}
        error={errors.confirm}
        onChange={setConfirm}
      />
      <SubmitButton busy={action.busy} busyLabel={t('saving')}>
        {t('password.submit')}
      </SubmitButton>
    </form>
  );
}
