import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { PromoCode } from '../../api/admin-pricing';
import { savePromoCode } from '../../state/adminPromoCodes';
import { PROMO_MAX_CENTS, checkPromoCode } from '../../../contract/rules';
import { ApiError } from '../../api/client';
import { centsToInput, formatUsd, parseDollars } from '../../lib/money';
import { TextField } from '../forms/TextField';
import { SubmitButton } from '../forms/SubmitButton';
import { FormError } from '../forms/FormError';
import { useFormAction } from '../forms/useFormAction';

import { DEFAULT_PROMO_CENTS } from '../../../contract/api/pricing';

/** A date input's 'YYYY-MM-DD' as the end of that day (UTC), so a code works through its last day. */
export const dateToExpiry = (d: string) => (d ? new Date(`${d}T23:59:59.999Z`).toISOString() : null);
export const expiryToDate = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** The fields of a code this form edits, as it showed them: an edit's `from`. */
const shownFields = (c: PromoCode) => ({ code: c.code, amountCents: c.amountCents, maxUses: c.maxUses, expiresAt: c.expiresAt, active: c.active });

/**
 * Create or edit one promo code: amount typed in dollars and sent as exact cents. An edit names
 * the code as the form showed it (`from`): when another admin changed it meanwhile, the server
 * refuses and the form ends with that refusal (`onDone('', refusal)`), for the page to show it
 * and read the list again.
 */
export function PromoCodeForm({ editing, onDone }: { editing: PromoCode | null; onDone: (msg: string, refused?: ApiError) => void }) {
  const { t, i18n } = useTranslation(['admin', 'validation']);
  const [code, setCode] = useState(editing?.code ?? '');
  const [amount, setAmount] = useState(() => centsToInput(editing?.amountCents ?? DEFAULT_PROMO_CENTS, i18n.language));
  const [maxUses, setMaxUses] = useState(String(editing?.maxUses ?? 100));
  const [expires, setExpires] = useState(expiryToDate(editing?.expiresAt ?? null));
  const [active, setActive] = useState(editing?.active ?? true);
  const [tried, setTried] = useState(false);
  const form = useFormAction();
  // The server refused the code as taken: the refusal is about the Code field (marked invalid, described by it).
  const [codeTaken, setCodeTaken] = useState(false);

  const cents = parseDollars(amount);
  const uses = Number(maxUses);
  // An expiry left as it was is not checked: the server refuses a past day only on create, and an
  // expired code must stay editable (switched off, its uses raised) without being given a new day.
  const expiryChanged = !editing || expires !== expiryToDate(editing.expiresAt);
  const errors = {
    code: checkPromoCode(code) ? t(`validation:${checkPromoCode(code)}`) : null,
    amount: cents == null || cents <= 0 || cents > PROMO_MAX_CENTS ? t('promo.amountRule', { max: formatUsd(PROMO_MAX_CENTS, i18n.language) }) : null,
    maxUses: Number.isInteger(uses) && uses >= 1 && uses <= 1_000_000 ? null : t('promo.maxUsesRule'),
    // The code works through the chosen day (UTC): a day already over is refused, as the server would.
    expires: expiryChanged && expires && (dateToExpiry(expires) ?? '') <= new Date().toISOString() ? t('promo.expiresPast') : null,
  };
  const show = (k: keyof typeof errors) => (tried ? errors[k] : null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // The errors are shown (each describing its field) before the first invalid field takes focus: a screen reader hears it there.
    flushSync(() => setTried(true));
    const invalid = (Object.keys(errors) as (keyof typeof errors)[]).find((k) => errors[k]);
    if (invalid) {
      document.getElementById(`promo-form-${invalid}`)?.focus();
      return;
    }
    if (cents == null) return;
    // An expiry left as it was keeps its moment (a welcome code's is to the minute, not the end of a day).
    const expiresAt = editing && !expiryChanged ? editing.expiresAt : dateToExpiry(expires);
    const body = { code, amountCents: cents, maxUses: uses, expiresAt, active };
    setCodeTaken(false);
    let taken = false;
    let changed = null as ApiError | null;
    const saved = await form.run(() =>
      savePromoCode(editing ? { id: editing.id, ...body, from: shownFields(editing) } : body).catch((err: unknown) => {
        taken = err instanceof ApiError && err.code === 'pricing.promo_code_taken';
        if (err instanceof ApiError && err.code === 'pricing.promo_code_changed_meanwhile') changed = err;
        throw err;
      }),
    );
    if (changed) return onDone('', changed);
    if (taken) {
      flushSync(() => setCodeTaken(true)); // invalid and described before it takes focus
      document.getElementById('promo-form-code')?.focus();
    }
    if (saved !== undefined) onDone(t(editing ? 'promo.updated' : 'promo.created', { code, amount: formatUsd(cents, i18n.language) }));
  }

  return (
    <form onSubmit={submit} noValidate className="card" aria-labelledby="promo-form-h">
      <h2 id="promo-form-h">{editing ? t('promo.editTitle', { code: editing.code }) : t('promo.createTitle')}</h2>
      <TextField
        id="promo-form-code"
        label={t('promo.code')}
        value={code}
        onChange={(v) => setCode(v.toUpperCase())}
        maxLength={32}
        hint={t('validation:promoCodeInvalid')}
        error={show('code')}
        refusedBy={codeTaken && form.error ? 'promo-form-refused' : null}
      />
      <TextField
        id="promo-form-amount"
        label={t('promo.amount')}
        inputMode="decimal"
        value={amount}
        onChange={setAmount}
        hint={t('promo.amountHint')}
        error={show('amount')}
      />
      <TextField id="promo-form-maxUses" label={t('promo.maxUses')} inputMode="numeric" value={maxUses} onChange={setMaxUses} error={show('maxUses')} />
      <TextField
        id="promo-form-expires"
        label={t('promo.expires')}
        type="date"
        value={expires}
        onChange={setExpires}
        hint={t('promo.expiresHint')}
        error={show('expires')}
      />
      <label style={{ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 14 }}>
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
        {t('promo.active')}
      </label>
      <FormError message={form.error} id="promo-form-refused" />
      <SubmitButton busy={form.busy}>{editing ? t('save') : t('promo.create')}</SubmitButton>{' '}
      {editing && (
        <button type="button" className="btn btn-white" onClick={() => onDone('')}>
          {t('cancel')}
        </button>
      )}
    </form>
  );
}
