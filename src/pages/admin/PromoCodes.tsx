import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { PROMO_PAGE_SIZE, adminPromoCodesStore, promoQuery } from '../../state/adminPromoCodes';
import type { PromoCode } from '../../api/admin-pricing';
import { errorMessage, type ApiError } from '../../api/client';
import { formatUsd } from '../../lib/money';
import { Pagination } from '../../components/market/Pagination';
import { LoadState } from '../../components/market/Status';
import { dateLabel } from '../../components/market/labels';
import { PromoCodeForm } from '../../components/market/PromoCodeForm';

/** Admin: promo codes (list, create, edit). */
export default function PromoCodes() {
  const { t, i18n } = useTranslation('admin');
  const snap = useSnapshot(adminPromoCodesStore.state);
  const q = useSnapshot(promoQuery);
  const [editing, setEditing] = useState<PromoCode | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [note, setNote] = useState<string | null>(null);
  // A save refused because another admin changed the code meanwhile: kept unworded, worded at render.
  const [refused, setRefused] = useState<ApiError | null>(null);
  const noteRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    void adminPromoCodesStore.load();
  }, [q.page]);
  // A save or a cancel remounts the form, and the button used goes with it: focus goes to the
  // outcome (or, after a cancel, to the page's heading), not to the page's body.
  useEffect(() => {
    if (formKey > 0) (noteRef.current ?? headingRef.current)?.focus();
  }, [formKey]);

  const codes = (snap.data?.promoCodes ?? []) as readonly PromoCode[];
  return (
    <section>
      <h1 ref={headingRef} tabIndex={-1}>
        {t('promo.title')}
      </h1>
      {note && (
        <div ref={noteRef} role="status" tabIndex={-1} className="alert alert-success">
          {note}
        </div>
      )}
      {refused && (
        <div ref={noteRef} role="alert" tabIndex={-1} className="alert alert-error">
          {errorMessage(refused)}
        </div>
      )}
      <PromoCodeForm
        key={`${editing?.id ?? 'new'}-${formKey}`}
        editing={editing}
        onDone={(msg, refusal) => {
          setEditing(null);
          setFormKey((k) => k + 1); // a fresh, empty form after each save
          setNote(msg || null);
          setRefused(refusal ?? null);
          // Refused as changed meanwhile: the list shows the code as it is now, to edit again from there.
          if (refusal) void adminPromoCodesStore.load();
        }}
      />
      <h2 id="promo-list-h">{t('promo.list')}</h2>
      <LoadState loading={snap.loading && !snap.data} error={snap.error} />
      {snap.data && !codes.length && <p>{t('promo.empty')}</p>}
      {codes.length > 0 && (
        <div style={{ overflowX: 'auto' }}>
          <table className="data" aria-labelledby="promo-list-h">
            <thead>
              <tr>
                <th>{t('promo.code')}</th>
                <th>{t('promo.amountShort')}</th>
                <th>{t('promo.uses')}</th>
                <th>{t('promo.expires')}</th>
                <th>{t('promo.active')}</th>
                <th>{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {codes.map((c) => (
                <tr key={c.id}>
                  <td>
                    <code>{c.code}</code>
                  </td>
                  <td>{formatUsd(c.amountCents, i18n.language)}</td>
                  <td>
                    {c.uses} / {c.maxUses}
                  </td>
                  <td>{c.expiresAt ? dateLabel(c.expiresAt, i18n.language, true) : t('promo.never')}</td>
                  <td>{c.active ? t('yes') : t('no')}</td>
                  <td>
                    <button type="button" className="btn btn-sm btn-white" onClick={() => setEditing(c)} aria-label={t('promo.editCode', { code: c.code })}>
                      {t('edit')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {snap.data && <Pagination page={q.page} pageSize={PROMO_PAGE_SIZE} total={snap.data.total} onPage={(p) => (promoQuery.page = p)} />}
    </section>
  );
}
