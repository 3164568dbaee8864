import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SentNotice, focusFirstInvalid, useReportForm } from '../../components/public/forms';
import { useHydrated, useTypedBeforeHydration } from '../../components/forms/useTypedBeforeHydration';
import { messageError } from '../../components/public/validate';
import { tList } from '../../components/public/i18nList';
import s from '../../components/public/page.module.css';

const AD_ID = /^[a-z0-9]{1,40}$/;

/** Accepts an ad number or a pasted ad address (…/ad/abc123). */
function adIdFrom(v: string): string {
  const m = /\/ad\/([a-z0-9]+)/i.exec(v);
  return (m ? m[1] : v).trim();
}

export default function ReportCrime() {
  const { t } = useTranslation('pages');
  const form = useRef<HTMLFormElement>(null);
  const { state, send, reset } = useReportForm();
  const [message, setMessage] = useState('');
  const [adId, setAdId] = useState('');
  const [contact, setContact] = useState('');
  const [tried, setTried] = useState(false);
  // A report typed before hydration is the one sent (useTypedBeforeHydration); Send answers once
  // the page does: the browser's own submit would reload the page and lose the report.
  const messageRef = useTypedBeforeHydration<HTMLTextAreaElement>(message, setMessage);
  const adIdRef = useTypedBeforeHydration<HTMLInputElement>(adId, setAdId);
  const contactRef = useTypedBeforeHydration<HTMLInputElement>(contact, setContact);
  const hydrated = useHydrated();
  const noScript = useId();
  const ad = adIdFrom(adId);
  const errors = { message: messageError(message), adId: ad && !AD_ID.test(ad) ? 'reportCrime.adIdInvalid' : null };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (errors.message || errors.adId) {
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    void send({ kind: 'trafficking', message: message.trim(), adId: ad || null, contact: contact.trim() || null });
  };
  const again = () => {
    setMessage('');
    setAdId('');
    setTried(false);
    reset();
  };

  return (
    <article className={s.card}>
      <h1>{t('reportCrime.title')}</h1>
      <p className={s.lead}>{t('reportCrime.intro')}</p>
      <p className={s.emergency}>{t('reportCrime.emergency')}</p>
      <section className={s.hotline} aria-labelledby="hotline">
        <h2 id="hotline">{t('reportCrime.hotlineTitle')}</h2>
        <p>{t('reportCrime.hotlineText')}</p>
        <p className={s.hotlineNumbers}>
          <span>
            {t('reportCrime.callLabel')} <a href="tel:+18883737888">{t('reportCrime.hotlinePhone')}</a>
          </span>
          <span>
            {t('reportCrime.textLabel')} <a href="sms:233733">{t('reportCrime.hotlineSms')}</a>
          </span>
        </p>
        <p style={{ marginBottom: 0 }}>{t('reportCrime.cybertip')}</p>
      </section>
      <h2>{t('reportCrime.signsTitle')}</h2>
      <ul>
        {tList<string>(t, 'reportCrime.signs').map((sign) => (
          <li key={sign}>{sign}</li>
        ))}
      </ul>
      <h2>{t('reportCrime.formTitle')}</h2>
      {state.status === 'sent' ? (
        <SentNotice text={t('reportCrime.sent')} onAgain={again} />
      ) : (
        <form ref={form} className={s.form} onSubmit={submit} noValidate>
          <Field label={t('reportCrime.what')} hint={t('reportCrime.whatHint')} required error={tried && errors.message ? t(errors.message) : null}>
            {(p) => <textarea {...p} ref={messageRef} maxLength={5000} value={message} onChange={(e) => setMessage(e.target.value)} />}
          </Field>
          <Field label={t('reportCrime.adId')} hint={t('reportCrime.adIdHint')} error={tried && errors.adId ? t(errors.adId) : null}>
            {(p) => <input {...p} ref={adIdRef} maxLength={200} value={adId} onChange={(e) => setAdId(e.target.value)} />}
          </Field>
          <Field label={t('reportCrime.contact')} hint={t('reportCrime.contactHint')}>
            {(p) => <input {...p} ref={contactRef} maxLength={254} autoComplete="email" value={contact} onChange={(e) => setContact(e.target.value)} />}
          </Field>
          {state.status === 'error' && <p className="alert alert-error" role="alert">{state.message}</p>}
          {/* Without scripts (Tor Browser's "Safest", NoScript) Send never answers: the server's HTML says
              so, and points to the hotline, which needs no script. */}
          <noscript>
            <p id={noScript} className="alert alert-info">
              {t('reportCrime.needsScript', { phone: t('reportCrime.hotlinePhone'), sms: t('reportCrime.hotlineSms') })}
            </p>
          </noscript>
          <button type="submit" className="btn btn-danger" disabled={!hydrated || state.status === 'sending'} aria-describedby={hydrated ? undefined : noScript}>
            {state.status === 'sending' ? t('forms.sending') : t('forms.send')}
          </button>
        </form>
      )}
    </article>
  );
}
