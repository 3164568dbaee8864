import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { logout, sessionStore } from '../state/session';
import { BusyButton } from './forms/BusyButton';

// The session cookie is HttpOnly: only the server's answer to POST /api/logout ends it. When that
// call fails (offline, 5xx) this tab forgets the user's data anyway, but the next person to use
// the browser would still be signed in as them: say so, on whatever page the sign-out led to, and
// let them try again. A lazy chunk (the session store stays out of the home page's first script);
// it renders nothing until a sign-out fails, so a server-rendered page hydrates unchanged.

const look = { margin: 0, borderRadius: 0, display: 'flex', gap: 12, alignItems: 'center', justifyContent: 'center', flexWrap: 'wrap' } as const;

export default function SignOutFailed() {
  const { t } = useTranslation();
  const { signOutFailed } = useSnapshot(sessionStore);
  const [busy, setBusy] = useState(false);
  if (!signOutFailed) return null;
  const retry = async () => {
    setBusy(true);
    await logout().catch(() => undefined); // a new failure keeps this notice up
    setBusy(false);
  };
  return (
    <div role="alert" className="alert alert-error" style={look}>
      <span>{t('signOutFailed')}</span>
      <BusyButton className="btn btn-sm btn-white" busy={busy} onClick={() => void retry()}>
        {t('signOutRetry')}
      </BusyButton>
    </div>
  );
}
