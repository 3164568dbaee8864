import { Fragment, useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { sessionStore, isAdmin, isMaster, isProvider, loadSession } from '../state/session';
import { errorMessage } from '../api/client';
import { Loading } from '../components/Loading';
import { useTranslation } from 'react-i18next';

/**
 * Dashboard guard: guests go to sign-in with a redirect back; the wrong role sees a refusal. A
 * session that could not be read (503 busy, a dropped connection) is not a guest's: the user may
 * well be signed in, so the guard says what went wrong and offers a retry instead of asking for
 * the password again.
 */
export function RequireRole({ need, children }: { need: 'user' | 'admin' | 'master'; children: ReactNode }) {
  const snap = useSnapshot(sessionStore);
  const [location, navigate] = useLocation();
  const { t } = useTranslation();
  const s = snap.session;
  const allowed = need === 'user' ? isProvider(s) : need === 'admin' ? isAdmin(s) : isMaster(s);

  useEffect(() => {
    if (snap.loaded && !s.isAuthenticated) {
      navigate(`/auth/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`, { replace: true });
    }
  }, [snap.loaded, s.isAuthenticated, navigate, location]);

  if (!snap.loaded && snap.error && !snap.loading)
    return (
      <main id="main" style={{ padding: 24 }}>
        <h1>{t('sessionUnreadableTitle')}</h1>
        {/* Worded here: a language switch re-words it. */}
        <p role="alert" className="alert alert-error">
          {errorMessage(snap.error)}
        </p>
        <button type="button" className="btn btn-primary" onClick={() => void loadSession()}>
          {t('tryAgain')}
        </button>
      </main>
    );
  if (!snap.loaded || !s.isAuthenticated) return <Loading />;
  if (!allowed)
    return (
      <main id="main" style={{ padding: 24 }}>
        <h1>{t('forbiddenTitle')}</h1>
        <p>{t('forbiddenText')}</p>
      </main>
    );
  // Keyed by the user: a tab whose session becomes another user's (the first one's ended, the next
  // signed in elsewhere on this computer) mounts the page afresh, so no form or dialog state
  // typed by the first is shown to (or sent by) the next.
  return <Fragment key={s.id}>{children}</Fragment>;
}
