import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { walletsApi, PROMO_WALLET, type Wallet } from '../../../api/wallets';
import { paymentsApi, type Invoice } from '../../../api/payments';
import { Money } from '../../../components/market/Money';
import { formatUsd } from '../../../lib/money';

/** What deleting the account would forfeit: each read is null until answered, 'failed' when it could not be. */
type Leftovers = { wallets: readonly Wallet[] | 'failed' | null; invoices: readonly Invoice[] | 'failed' | null };

/** Invoices BTCPay may still credit: waiting for payment, or paid and waiting for confirmation. */
const isOpen = (i: Invoice) => i.status === 'New' || i.status === 'Processing';
/** The invoices list's largest page (contract/api/paging.ts; not imported: it would bring TypeBox into the page). */
const INVOICES_READ = 100;

/**
 * Reads the user's wallets and Bitcoin invoices afresh each time the delete dialog opens: money
 * left there is forfeited by the deletion (the server keeps the ledger, nobody can spend or refund
 * it afterwards), so the dialog says so before the password is asked. Read here rather than through
 * the wallet screen's stores: this is a one-off look that must not move that screen's pages.
 */
function useLeftovers(): Leftovers {
  const [left, setLeft] = useState<Leftovers>({ wallets: null, invoices: null });
  useEffect(() => {
    let alive = true;
    const settle = (part: Partial<Leftovers>) => alive && setLeft((l) => ({ ...l, ...part }));
    walletsApi.all().then(
      (r) => settle({ wallets: r.wallets }),
      () => settle({ wallets: 'failed' }),
    );
    // Newest first, and at most 5 are open at once: the first page holds every open one.
    paymentsApi.myInvoices({ page: 1, pageSize: INVOICES_READ }).then(
      (r) => settle({ invoices: r.invoices.filter(isOpen) }),
      () => settle({ invoices: 'failed' }),
    );
    return () => {
      alive = false;
    };
  }, []);
  return left;
}

/** The delete dialog's warning about money left in the wallets and open invoices; nothing when none is left. */
export function DeleteLeftovers({ id }: { id: string }) {
  const { t, i18n } = useTranslation('profile');
  const { wallets, invoices } = useLeftovers();
  const funded = Array.isArray(wallets) ? wallets.filter((w) => w.amountCents > 0) : [];
  const open = Array.isArray(invoices) ? invoices : [];
  const checking = wallets === null || invoices === null;
  const failed = wallets === 'failed' || invoices === 'failed';
  const something = funded.length > 0 || open.length > 0;

  return (
    // Polite: the answers arrive after the dialog opened and focused the password field.
    <div id={id} aria-live="polite">
      {checking && <p>{t('delete.left.checking')}</p>}
      {!checking && (something || failed) && (
        <div className="alert alert-error">
          {something && (
            <>
              <p style={{ marginTop: 0 }}>{t('delete.left.title')}</p>
              <ul>
                {funded.map((w) => (
                  <li key={w.id}>
                    {t(w.walletType === PROMO_WALLET ? 'delete.left.promo' : 'delete.left.usd')} <Money cents={w.amountCents} />
                  </li>
                ))}
                {open.map((inv) => (
                  <li key={inv.invoiceId}>
                    {t(inv.status === 'Processing' ? 'delete.left.invoiceProcessing' : 'delete.left.invoiceNew', {
                      amount: formatUsd(inv.amountCents, i18n.language),
                    })}
                  </li>
                ))}
              </ul>
              <p>{t('delete.left.forfeit')}</p>
              {open.length > 0 && <p>{t('delete.left.invoicesForfeit')}</p>}
            </>
          )}
          {wallets === 'failed' && <p>{t('delete.left.walletsFailed')}</p>}
          {invoices === 'failed' && <p style={{ marginBottom: 0 }}>{t('delete.left.invoicesFailed')}</p>}
        </div>
      )}
    </div>
  );
}
