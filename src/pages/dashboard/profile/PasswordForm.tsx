import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { checkPassword } from '../../../../contract/rules';
import { updatePassword } from '../../../state/profile';
import { sessionStore } from '../../../state/session';
import { PasswordField } from '../../../components/forms/PasswordField';
import { FormError, FormSuccess } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';
import { ApiError } from '../../../api/client';

type Errors = { current?: string | null; next?: string | null; confirm?: string | null };

export function PasswordForm() {
  const { t } = useTranslation(['profile', 'validation', 'auth']);
  const { session } = useSnapshot(sessionStore);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const action = useFormAction();
  // The server refused the current password: the refusal is about that field (marked invalid, described by it).
  const [wrongCurrent, setWrongCurrent] = useState(false);

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
    setWrongCurrent(false);
    let wrong = false;
    const ok = await action.run(async () => {
      try {
        await updatePassword(current, next);
      } catch (err) {
        wrong = err instanceof ApiError && err.code === 'profile.wrong_password';
        throw err;
      }
      return true;
    }, t('password.saved'));
    if (wrong) {
      flushSync(() => setWrongCurrent(true)); // invalid and described before it takes focus
      document.getElementById('password-current')?.focus();
    }
    if (ok) {
      setCurrent('');
      setNext('');
      setConfirm('');
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="password-title" className="card">
      <h2 id="password-title">{t('password.title')}</h2>
      <FormError message={action.error} id="password-refused" />
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
        refusedBy={wrongCurrent && action.error ? 'password-refused' : null}
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
