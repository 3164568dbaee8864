import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { adminPricingStore, setPrice } from '../../state/adminPricing';
import { ApiError, asError, errorMessage } from '../../api/client';
import type { Price } from '../../api/pricing';
import { centsToInput, formatUsd, parseDollars } from '../../lib/money';
import { PRICE_MAX_CENTS } from '../../../contract/rules';
import { LoadState } from '../../components/market/Status';
import { typeLabel } from '../../components/market/labels';

export const DURATION_MAX = 365;

/** One price row: dollars (and days for ads) edited in place and saved on their own. */
function PriceRow({ row }: { row: Price }) {
  const { t, i18n } = useTranslation(['admin', 'market']);
  const [price, setPriceText] = useState(() => centsToInput(row.priceCents, i18n.language));
  const [days, setDays] = useState(row.durationDays != null ? String(row.durationDays) : '');
  // The list read again (after another admin's change refused a save here): the inputs show the
  // price as it is now, the one the next save names as `from`.
  const shown = `${row.priceCents}/${row.durationDays}`;
  const [shownBefore, setShownBefore] = useState(shown);
  if (shown !== shownBefore) {
    setShownBefore(shown);
    setPriceText(centsToInput(row.priceCents, i18n.language));
    setDays(row.durationDays != null ? String(row.durationDays) : '');
  }
  const [busy, setBusy] = useState(false);
  // The outcome kept unworded (a rule broken, the price saved, the error), worded at render: a language switch re-words it.
  const [msg, setMsg] = useState<{ ok: false; rule: 'price' | 'days' } | { ok: true; savedCents: number } | { ok: false; error: Error } | null>(null);
  const cents = parseDollars(price);
  const dayNum = Number(days);
  const isAd = row.kind === 'ad';
  const priceBad = cents == null || cents > PRICE_MAX_CENTS;
  const daysBad = isAd && !(Number.isInteger(dayNum) && dayNum >= 1 && dayNum <= DURATION_MAX);
  const label = `${t(`pricing.kind.${row.kind}`)} – ${typeLabel(t, row.listingType)}`;
  // A broken rule's message describes the field it refuses: tabbing back to it says what is wrong.
  const msgId = `price-${row.id}-msg`;
  const refused = (rule: 'price' | 'days') => (msg && !msg.ok && 'rule' in msg && msg.rule === rule ? msgId : undefined);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return; // Enter in a field while it saves
    if (priceBad || daysBad) {
      return setMsg({ ok: false, rule: priceBad ? 'price' : 'days' });
    }
    setBusy(true);
    setMsg(null);
    try {
      // `from`: the price this row showed, so a save over another admin's change is refused, not applied.
      await setPrice(row.id, cents, isAd ? dayNum : undefined, { priceCents: row.priceCents, durationDays: row.durationDays });
      setMsg({ ok: true, savedCents: cents });
    } catch (err) {
      setMsg({ ok: false, error: asError(err) });
      if (err instanceof ApiError && err.code === 'pricing.changed_meanwhile') await adminPricingStore.load();
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr>
      <th scope="row">{label}</th>
      <td>
        <input
          form={`price-${row.id}`}
          aria-label={t('pricing.priceFor', { row: label })}
          inputMode="decimal"
          value={price}
          onChange={(e) => setPriceText(e.target.value)}
          aria-invalid={priceBad || undefined}
          aria-describedby={refused('price')}
          size={10}
        />
      </td>
      <td>
        {isAd ? (
          <input
            form={`price-${row.id}`}
            aria-label={t('pricing.daysFor', { row: label })}
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={daysBad || undefined}
            aria-describedby={refused('days')}
            size={5}
          />
        ) : (
          '—'
        )}
      </td>
      <td>
        <form id={`price-${row.id}`} onSubmit={save}>
          {/* Refused while it saves with aria-disabled, not `disabled`: the pressed button keeps keyboard focus. */}
          <button
            type="submit"
            className="btn btn-sm btn-primary"
            aria-disabled={busy || undefined}
            aria-busy={busy || undefined}
            aria-label={t('pricing.saveRow', { row: label })}
          >
            {t('save')}
          </button>
        </form>
        {msg && (
          <span id={msgId} role={msg.ok ? 'status' : 'alert'} className={msg.ok ? undefined : 'field-error'}>
            {'savedCents' in msg
              ? t('pricing.saved', { price: formatUsd(msg.savedCents, i18n.language) })
              : 'error' in msg
                ? errorMessage(msg.error)
                : msg.rule === 'price'
                  ? t('pricing.priceRule', { max: formatUsd(PRICE_MAX_CENTS, i18n.language) })
                  : t('pricing.daysRule', { max: DURATION_MAX })}
          </span>
        )}
      </td>
    </tr>
  );
}

/** Admin: ad and bump prices per listing type, with the ad duration in days. */
export default function Pricing() {
  const { t } = useTranslation('admin');
  const snap = useSnapshot(adminPricingStore.state);
  useEffect(() => {
    void adminPricingStore.load();
  }, []);
  const rows = [...((snap.data ?? []) as readonly Price[])].sort((a, b) => a.kind.localeCompare(b.kind) || a.listingType.localeCompare(b.listingType));

  return (
    <section>
      <h1 id="pricing-h">{t('pricing.title')}</h1>
      <p>{t('pricing.intro')}</p>
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      {rows.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-labelledby="pricing-h">
            <thead>
              <tr>
                <th>{t('pricing.item')}</th>
                <th>{t('pricing.price')}</th>
                <th>{t('pricing.days')}</th>
                <th>{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <PriceRow key={r.id} row={r} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
