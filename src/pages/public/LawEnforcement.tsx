import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionsPage } from '../../components/public/LegalPage';
import { Field, SentNotice, focusFirstInvalid, useReportForm } from '../../components/public/forms';
import { useHydrated, useTypedBeforeHydration } from '../../components/forms/useTypedBeforeHydration';
import { emailError, messageError } from '../../components/public/validate';
import s from '../../components/public/page.module.css';

const TYPES = ['legal_process', 'preservation', 'emergency', 'other'] as const;
type RequestType = (typeof TYPES)[number];

export default function LawEnforcement() {
  const { t } = useTranslation('pages');
  const form = useRef<HTMLFormElement>(null);
  const { state, send, reset } = useReportForm();
  const [v, setV] = useState({ agency: '', officer: '', email: '', phone: '', type: 'legal_process' as RequestType, reference: '', details: '' });
  const [tried, setTried] = useState(false);
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  // What was typed or chosen before hydration is what is sent (useTypedBeforeHydration); Send
  // answers once the page does: the browser's own submit would reload the page and lose the text.
  const take = (k: keyof typeof v) => (x: string) => setV((cur) => ({ ...cur, [k]: x }));
  const refs = {
    agency: useTypedBeforeHydration<HTMLInputElement>(v.agency, take('agency')),
    officer: useTypedBeforeHydration<HTMLInputElement>(v.officer, take('officer')),
    email: useTypedBeforeHydration<HTMLInputElement>(v.email, take('email')),
    phone: useTypedBeforeHydration<HTMLInputElement>(v.phone, take('phone')),
    type: useTypedBeforeHydration<HTMLSelectElement>(v.type, (x) => setV((cur) => ({ ...cur, type: TYPES.find((k) => k === x) ?? cur.type }))),
    reference: useTypedBeforeHydration<HTMLInputElement>(v.reference, take('reference')),
    details: useTypedBeforeHydration<HTMLTextAreaElement>(v.details, take('details')),
  };
  const hydrated = useHydrated();
  const noScript = useId();
  const errors = {
    agency: v.agency.trim() ? null : 'forms.fieldRequired',
    officer: v.officer.trim() ? null : 'forms.fieldRequired',
    email: emailError(v.email),
    details: messageError(v.details),
  };
  const err = (k: keyof typeof errors) => (tried && errors[k] ? t(errors[k]!) : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.values(errors).some(Boolean)) {
      requestAnimationFrame(() => focusFirstInvalid(form.current));
      return;
    }
    // One text for staff: the request's particulars first, then the details.
    const head = [
      `Request type: ${v.type}${v.type === 'emergency' ? ' (EMERGENCY)' : ''}`,
      `Agency: ${v.agency.trim()}`,
      `Officer: ${v.officer.trim()}`,
      v.phone.trim() ? `Phone: ${v.phone.trim()}` : '',
      v.reference.trim() ? `Reference: ${v.reference.trim()}` : '',
    ].filter(Boolean);
    void send({ kind: 'law_enforcement', contact: v.email.trim(), message: `${head.join('\n')}\n\n${v.details.trim()}` });
  };

  const formEl =
    state.status === 'sent' ? (
      <SentNotice text={t('lawEnforcement.sent')} onAgain={() => { setV({ ...v, details: '', reference: '' }); setTried(false); reset(); }} />
    ) : (
      <form ref={form} className={s.form} onSubmit={submit} noValidate>
        <Field label={t('lawEnforcement.agency')} required error={err('agency')}>{(p) => <input {...p} maxLength={200} autoComplete="organization" ref={refs.agency} value={v.agency} onChange={set('agency')} />}</Field>
        <Field label={t('lawEnforcement.officer')} required error={err('officer')}>{(p) => <input {...p} maxLength={200} autoComplete="name" ref={refs.officer} value={v.officer} onChange={set('officer')} />}</Field>
        <Field label={t('lawEnforcement.email')} required error={err('email')}>{(p) => <input {...p} type="email" maxLength={254} autoComplete="email" ref={refs.email} value={v.email} onChange={set('email')} />}</Field>
        <Field label={t('lawEnforcement.phone')}>{(p) => <input {...p} type="tel" maxLength={40} autoComplete="tel" ref={refs.phone} value={v.phone} onChange={set('phone')} />}</Field>
        <Field label={t('lawEnforcement.requestType')}>
          {(p) => (
            <select {...p} ref={refs.type} value={v.type} onChange={set('type')}>
              {TYPES.map((k) => (
                <option key={k} value={k}>{t(`lawEnforcement.types.${k}`)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('lawEnforcement.reference')}>{(p) => <input {...p} maxLength={100} ref={refs.reference} value={v.reference} onChange={set('reference')} />}</Field>
        <Field label={t('lawEnforcement.details')} hint={t('lawEnforcement.detailsHint')} required error={err('details')}>
          {(p) => <textarea {...p} ref={refs.details} maxLength={4500} value={v.details} onChange={set('details')} />}
        </Field>
        {state.status === 'error' && <p className="alert alert-error" role="alert">{state.message}</p>}
        {/* Without scripts Send never answers: the server's HTML says so. */}
        <noscript>
          <p id={noScript} className="alert alert-info">
            {t('forms.needsScript')}
          </p>
        </noscript>
        <button type="submit" className="btn btn-primary" disabled={!hydrated || state.status === 'sending'} aria-describedby={hydrated ? undefined : noScript}>
          {state.status === 'sending' ? t('forms.sending') : t('forms.send')}
        </button>
      </form>
    );

  return (
    <SectionsPage
      ns="lawEnforcement"
      toc
      after={
        <section aria-labelledby="le-form">
          <h2 id="le-form">{t('lawEnforcement.formTitle')}</h2>
          {formEl}
        </section>
      }
    />
  );
}
