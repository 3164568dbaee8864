// The user screen's money: wallet balances, the ledger and invoices.
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { UserDetail } from '../../api/moderation';
import { Money } from '../../components/market/Money';
import { dateTimeLabel } from '../../components/market/labels';
import { Section, Shown } from './UserDetailSection';

type Detail = Snapshot<UserDetail>;

export function UserMoney({ current }: { current: Detail }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
    <Section
      id="user-money"
      title={t('user.money')}
      count={current.wallets.length + current.ledger.length + current.invoices.length}
      total={current.wallets.length + current.ledgerTotal + current.invoicesTotal}
    >
      <ul>
        {current.wallets.map((w) => (
          <li key={w.id}>
            {t(`wallet.${w.walletType === 'USD' ? 'usd' : 'promo'}`)}: <Money cents={w.balanceCents} />
          </li>
        ))}
      </ul>
      {current.ledger.length > 0 && (
        <table className="data">
          <caption>
            {t('user.ledger')} <Shown shown={current.ledger.length} total={current.ledgerTotal} />
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('ledger.at')}</th>
              <th scope="col">{t('ledger.wallet')}</th>
              <th scope="col">{t('ledger.kind')}</th>
              <th scope="col">{t('ledger.amount')}</th>
              <th scope="col">{t('ledger.reference')}</th>
            </tr>
          </thead>
          <tbody>
            {current.ledger.map((l) => (
              <tr key={l.id}>
                <td>{dateTimeLabel(l.createdAt, lng)}</td>
                <td>{t(`wallet.${l.walletType === 'USD' ? 'usd' : 'promo'}`)}</td>
                {/* Named as the owner's wallet names it; the stored kind stays at hand for staff (its title). */}
                <td title={l.kind}>{t(`payments:kinds.${l.kind}`, { defaultValue: l.kind })}</td>
                <td style={{ textAlign: 'right' }}>
                  <Money cents={l.amountCents} />
                </td>
                <td>
                  <small>{l.reference}</small>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {current.invoices.length > 0 && (
        <table className="data">
          <caption>
            {t('user.invoices')} <Shown shown={current.invoices.length} total={current.invoicesTotal} />
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('ledger.at')}</th>
              <th scope="col">{t('invoice.id')}</th>
              <th scope="col">{t('ledger.amount')}</th>
              <th scope="col">{t('invoice.status')}</th>
            </tr>
          </thead>
          <tbody>
            {current.invoices.map((i) => (
              <tr key={i.id}>
                <td>{dateTimeLabel(i.createdAt, lng)}</td>
                <td>
                  <code>{i.invoiceId ?? i.id}</code>
                </td>
                <td>
                  <Money cents={i.amountCents} />
                </td>
                <td>
                  {/* BTCPay's status word in the page's language, as the owner's wallet and the payment server screen show it. */}
                  {t(`payments:status.${i.status}`, { defaultValue: i.status })}
                  {i.creditedAt && <small style={{ display: 'block' }}>{t('invoice.credited', { date: dateTimeLabel(i.creditedAt, lng) })}</small>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}
