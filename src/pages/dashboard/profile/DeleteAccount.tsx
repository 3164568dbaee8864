import { useEffect, useEffectEvent, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useTranslation } from 'react-i18next';
import { deleteMyProfile } from '../../../state/profile';
import { PasswordField } from '../../../components/forms/PasswordField';
import { FormError } from '../../../components/forms/FormError';
import { SubmitButton } from '../../../components/forms/SubmitButton';
import { useFormAction } from '../../../components/forms/useFormAction';
import { trapTab } from '../../../lib/focus-trap';
import { DeleteLeftovers } from './DeleteLeftovers';

/**
 * Deleting the account asks for the password in a dialog, which first says what money would be
 * forfeited (DeleteLeftovers); then the user is signed out and sent home.
 */
export function DeleteAccount() {
  const { t } = useTranslation('profile');
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const action = useFormAction();
  const opener = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);

  const close = () => {
    setOpen(false);
    setPassword('');
    setProblem(null);
    action.setError(null);
    opener.current?.focus();
  };

  const onEscape = useEffectEvent(() => close());
  useEffect(() => {
    if (!open) return;
    document.getElementById('delete-password')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onEscape();
      else trapTab(e, dialog.current); // aria-modal: Tab stays in the dialog, not the page behind its overlay
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setProblem(t('delete.passwordRequired'));
      return document.getElementById('delete-password')?.focus();
    }
    setProblem(null);
    const ok = await action.run(async () => {
      await deleteMyProfile(password);
      return true;
    });
    if (ok) navigate('/', { replace: true });
  }

  return (
    <section className="card" aria-labelledby="delete-title" style={{ borderTop: '4px solid var(--danger)' }}>
      <h2 id="delete-title">{t('delete.title')}</h2>
      <p>{t('delete.explain')}</p>
      <button ref={opener} type="button" className="btn btn-danger" onClick={() => setOpen(true)}>
        {t('delete.open')}
      </button>
      {open && (
        <div
          style={{
            position: 'fixed',
            inset: 0,
            background: 'rgba(0,0,0,0.45)',
            display: 'grid',
            placeItems: 'center',
            zIndex: 'var(--z-popper)' as never,
            padding: 16,
          }}
        >
          <div
            ref={dialog}
            role="dialog"
            aria-modal="true"
            aria-labelledby="delete-dialog-title"
            aria-describedby="delete-dialog-text delete-dialog-left"
            className="card"
            style={{ maxWidth: 460, width: '100%' }}
          >
            <h3 id="delete-dialog-title" style={{ marginTop: 0 }}>
              {t('delete.dialogTitle')}
            </h3>
            <p id="delete-dialog-text">{t('delete.dialogText')}</p>
            <DeleteLeftovers id="delete-dialog-left" />
            <form noValidate onSubmit={onSubmit}>
              <FormError message={action.error} />
              <PasswordField
                id="delete-password"
                label={t('delete.password')}
                autoComplete="current-password"
                required
                value={password}
                error={problem}
                onChange={setPassword}
              />
              <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
                <button type="button" className="btn btn-white" onClick={close} disabled={action.busy}>
                  {t('delete.cancel')}
                </button>
                <SubmitButton busy={action.busy} busyLabel={t('delete.deleting')} variant="danger">
                  {t('delete.confirm')}
                </SubmitButton>
              </div>
            </form>
          </div>
        </div>
      )}
    </section>
  );
}
