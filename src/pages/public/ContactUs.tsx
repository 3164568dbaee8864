import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { routes } from '../../app/routes';
import { Field, SentNotice, focusFirstInvalid, useReportForm } from '../../components/public/forms';
import { useHydrated, useTypedBeforeHydration } from '../../components/forms/useTypedBeforeHydration';
import { emailError, messageError } from '../../components/public/validate';
import s from '../../components/public/page.module.css';

const TOPICS = ['account', 'ad', 'payment', 'other'] as const;

export default function ContactUs() {
  const { t } = useTranslation('pages');
  const form = useRef<HTMLFormElement>(null);
  const { state, send, reset } = useReportForm();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [topic, setTopic] = useState<(typeof TOPICS)[number]>('account');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  // What was typed or chosen before hydration is what is sent (useTypedBeforeHydration); Send
  // answers once the page does: the browser's own submit would reload the page and lose the text.
  const nameRef = useTypedBeforeHydration<HTMLInputElement>(name, setName);
  const emailRef = useTypedBeforeHydration<HTMLInputElement>(email, setEmail);
  const topicRef = useTypedBeforeHydration<HTMLSelectElement>(topic, (v) => setTopic(TOPICS.find((k) => k === v) ?? 'account'));
  const messageRef = useTypedBeforeHydration<HTMLTextAreaElement>(message, setMessage);
  const hydrated = useHydrated();
  const noScript = useId();
  const errors = { email: emailError(email), message: messageError(message) };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (errors.email || errors.message) return requestAnimationFrame(() => focusFirstInvalid(form.current));
    // Staff read the topic and name first; the server stores one message text.
    const head = [`Topic: ${topic}`, name.trim() ? `Name: ${name.trim()}` : ''].filter(Boolean).join('\n');
    void send({ kind: 'contact', contact: email.trim(), message: `${head}\n\n${message.trim()}` });
  };
  const again = () => {
    setMessage('');
    setTried(false);
    reset();
  };

  return (
    <article className={s.card}>
      <h1>{t('contactUs.title')}</h1>
      <p className={s.lead}>{t('contactUs.intro')}</p>
      <p className="alert alert-info">
        {t('contactUs.urgent')} <Link href={routes.reportCrime}>{t('contactUs.urgentLink')}</Link>
      </p>
      {state.status === 'sent' ? (
        <SentNotice text={t('contactUs.sent')} onAgain={again} />
      ) : (
        <form ref={form} className={s.form} onSubmit={submit} noValidate>
          <Field label={t('forms.name')}>{(p) => <input {...p} ref={nameRef} autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
          <Field label={t('forms.email')} required error={tried && errors.email ? t(errors.email) : null}>
            {(p) => <input {...p} ref={emailRef} type="email" autoComplete="email" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Field label={t('contactUs.topic')}>
            {(p) => (
              <select {...p} ref={topicRef} value={topic} onChange={(e) => setTopic(e.target.value as (typeof TOPICS)[number])}>
                {TOPICS.map((k) => (
                  <option key={k} value={k}>{t(`contactUs.topics.${k}`)}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('forms.message')} required error={tried && errors.message ? t(errors.message) : null}>
            {(p) => <textarea {...p} ref={messageRef} maxLength={4800} value={message} onChange={(e) => setMessage(e.target.value)} />}
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
      )}
    </article>
  );
}
