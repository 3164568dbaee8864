import { useEffect, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { confirmEmailChange } from '../../state/profile';
import { loadSession, sessionStore } from '../../state/session';
import { asError, errorMessage } from '../../api/client';
import { routes } from '../../app/routes';
import { AuthCard } from './AuthCard';

/** A failure is kept as the error (null: no token in the link), worded at render: a language switch re-words it. */
type Outcome = { state: 'working' } | { state: 'done' } | { state: 'failed'; error: Error | null };

/** Follows the link sent to a new e-mail address: posts its token once and says how it went. */
export default function ConfirmEmail() {
  const { t } = useTranslation('auth');
  const token = new URLSearchParams(useSearch()).get('token')?.trim() ?? '';
  const { session } = useSnapshot(sessionStore);
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'working' } : { state: 'failed', error: null });

  useEffect(() => {
    if (!token) return;
    let live = true;
    confirmEmailChange(token).then(
      () => {
        if (live) setOutcome({ state: 'done' });
        void loadSession(); // the session carries the e-mail: show the new one
      },
      (e: unknown) => live && setOutcome({ state: 'failed', error: asError(e) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <AuthCard title={t('confirmEmail.title')}>
      {outcome.state === 'working' && <p role="status">{t('confirmEmail.working')}</p>}
      {outcome.state === 'done' && (
        <div role="status" className="alert alert-success">
          {t('confirmEmail.success')}
        </div>
      )}
      {outcome.state === 'failed' && (
        <div role="alert" className="alert alert-error">
          <p style={{ margin: 0 }}>{t('confirmEmail.failure')}</p>
          <p style={{ margin: '6px 0 0' }}>{outcome.error ? errorMessage(outcome.error) : t('confirmEmail.missingToken')}</p>
        </div>
      )}
      {outcome.state !== 'working' && (
        <p>
          {session.isAuthenticated ? (
            <Link href={routes.myProfile}>{t('confirmEmail.toProfile')}</Link>
          ) : (
            <Link href={routes.login}>{t('confirmEmail.toLogin')}</Link>
          )}
        </p>
      )}
    </AuthCard>
  );
}
