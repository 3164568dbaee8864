import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { isAdmin, sessionStore } from '../state/session';
import { onReset } from '../state/resource';
import { routes } from '../app/routes';
import type { PaymentMode } from '../api/payments';

// While BTCPay Server is not configured and the sandbox takes the payments, staff see it on every
// page. This chunk is lazy (never in the home page's first script); it renders nothing, asks the
// server nothing and loads neither the payments client nor the texts for anyone but staff
// (ADMIN_USER, MASTER_USER).

let mode: Promise<PaymentMode | null> | null = null;
onReset(() => {
  mode = null; // another user, another answer
});

/** The provider's mode, asked once per page load (a failure is asked again next time). */
function paymentMode(): Promise<PaymentMode | null> {
  mode ??= import('../api/payments')
    .then(({ paymentsApi }) => paymentsApi.provider())
    .then(
      (r) => r.mode,
      () => {
        mode = null;
        return null;
      },
    );
  return mode;
}

const look = { background: '#fff3e0', color: '#8a4b00', margin: 0, borderRadius: 0, textAlign: 'center', fontSize: 14 } as const;

function Banner() {
  const { t } = useTranslation('payments');
  return (
    <aside aria-label={t('banner.label')} className="alert" style={look}>
      {t('banner.text')} <Link href={routes.adminPaymentServer}>{t('banner.link')}</Link>
    </aside>
  );
}

/** "Sandbox payments are on", for staff, while the sandbox is the payment provider. */
export default function SandboxBanner() {
  const { session } = useSnapshot(sessionStore);
  const staff = isAdmin(session);
  const [sandbox, setSandbox] = useState(false);
  useEffect(() => {
    if (!staff) return;
    let live = true;
    void paymentMode().then((m) => {
      if (live) setSandbox(m === 'sandbox');
    });
    return () => {
      live = false;
    };
  }, [staff]);
  return staff && sandbox ? <Banner /> : null;
}
