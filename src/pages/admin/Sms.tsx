import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { normalizeUsPhone } from '../../../contract/rules';
import {
  adminTextbeltSmsStore,
  checkSmsBalance,
  loadSmsMessages,
  refreshSmsStatuses,
  saveTextbeltToken,
  sendTestSms,
  smsBalanceStore,
  smsMessagesStore,
  smsQuery,
} from '../../state/sms';
import type { SmsMessage, StatusRefresh } from '../../api/sms';
import { asError, errorMessage } from '../../api/client';
import { sayIt } from '../../lib/said';
import { TextField } from '../../components/forms/TextField';
import { TextAreaField } from '../../components/forms/TextAreaField';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { SubmitButton } from '../../components/forms/SubmitButton';
import { BusyButton } from '../../components/forms/BusyButton';
import { useFormAction } from '../../components/forms/useFormAction';
import { Pager } from '../../components/forms/Pager';
import { LoadState } from '../../components/market/Status';
import styles from '../../components/market/market.module.css';

const tone: Record<string, string> = {
  accepted: styles.badgeOn,
  sent: styles.badgeOn,
  delivered: styles.badgeOn,
  sending: styles.badgeWarn,
  test: styles.badgeWarn,
  refused: styles.badgeBad,
  error: styles.badgeBad,
  failed: styles.badgeBad,
};
const statusText = (t: TFunction, status: string) => t(`status.${status}`, { defaultValue: status });
/**
 * Why a message was refused or not sent. A refusal: Textbelt's own words as they came (its status
 * already says it refused). Not sent: its code as the health page words it (admin locale,
 * says.sms.*). A row stored before the codes: as it was written.
 */
function failureText(t: TFunction, m: Pick<SmsMessage, 'error' | 'failure'>, lang: string): string | null {
  if (!m.failure) return m.error;
  if (m.failure.code === 'sms.refused') return m.failure.detail ?? null;
  return sayIt(t, m.failure, m.error ?? m.failure.code, lang);
}
const KEY_RE = /^[A-Za-z0-9_-]+$/;

/** The Textbelt key: shown masked, replaced or removed (the server audits it). */
function KeyForm({ current }: { current: string | null }) {
  const { t } = useTranslation('sms');
  const [value, setValue] = useState('');
  // The problem's key, worded at render: a language switch re-words it.
  const [error, setError] = useState<'key.required' | 'key.invalid' | null>(null);
  const action = useFormAction('sms');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const key = value.trim();
    const problem = !key ? 'key.required' : KEY_RE.test(key) ? null : 'key.invalid';
    setError(problem);
    if (problem) return document.getElementById('sms-key')?.focus();
    if (
      await action.run(
        () => saveTextbeltToken(key),
        (t) => t('key.saved'),
      )
    )
      setValue('');
  }

  return (
    <form noValidate onSubmit={onSubmit} className="card" aria-labelledby="sms-key-title">
      <h2 id="sms-key-title">{t('key.title')}</h2>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      <p>
        {current ? (
          <>
            {t('key.current')}: <code data-testid="sms-key-current">{current}</code>
          </>
        ) : (
          t('key.none')
        )}
      </p>
      <TextField
        id="sms-key"
        label={t('key.label')}
        hint={t('key.hint')}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={200}
        value={value}
        error={error && t(error)}
        onChange={setValue}
      />
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        <SubmitButton busy={action.busy} busyLabel={t('key.saving')}>
          {t('key.save')}
        </SubmitButton>
        {current && (
          <BusyButton
            className="btn btn-white"
            busy={action.busy}
            onClick={() =>
              void action.run(
                () => saveTextbeltToken(''),
                (t) => t('key.removed'),
              )
            }
          >
            {t('key.remove')}
          </BusyButton>
        )}
      </div>
    </form>
  );
}

/** The key's remaining quota, asked of Textbelt when the admin wants it. */
function Balance({ hasKey }: { hasKey: boolean }) {
  const { t, i18n } = useTranslation('sms');
  const balance = useSnapshot(smsBalanceStore.state);
  return (
    <section className="card" aria-labelledby="sms-balance-title">
      <h2 id="sms-balance-title">{t('balance.title')}</h2>
      {!hasKey ? (
        <p>{t('balance.needsKey')}</p>
      ) : (
        <>
          <p aria-live="polite">
            {balance.data ? t('balance.remaining', { count: balance.data.quotaRemaining.toLocaleString(i18n.language) }) : t('balance.notAsked')}
          </p>
          {balance.error && (
            <div role="alert" className="alert alert-error">
              {errorMessage(balance.error)}
            </div>
          )}
          <BusyButton className="btn btn-primary" busy={balance.loading} onClick={() => void checkSmsBalance()}>
            {balance.loading ? t('balance.checking') : t('balance.check')}
          </BusyButton>
        </>
      )}
    </section>
  );
}

/** One test message to a number; what became of it is said at once, and it heads the list. */
function TestForm() {
  const { t } = useTranslation(['sms', 'admin']);
  const [phone, setPhone] = useState('');
  const [message, setMessage] = useState('');
  // Worded at render: a language switch re-words it.
  const [phoneInvalid, setPhoneInvalid] = useState(false);
  const action = useFormAction(['sms', 'admin']);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const to = normalizeUsPhone(phone);
    setPhoneInvalid(!to);
    if (!to) return document.getElementById('sms-test-phone')?.focus();
    const sent = await action.run(() => sendTestSms(to, message));
    if (!sent) return;
    action.setSuccess((t, lang) => {
      const status = statusText(t, sent.status);
      const error = failureText(t, sent, lang);
      return error ? t('test.resultError', { to: sent.to, status, error }) : t('test.result', { to: sent.to, status });
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="card" aria-labelledby="sms-test-title">
      <h2 id="sms-test-title">{t('test.title')}</h2>
      <FormError message={action.error} />
      <FormSuccess message={action.success} />
      <TextField
        id="sms-test-phone"
        label={t('test.phone')}
        hint={t('test.phoneHint')}
        type="tel"
        maxLength={40}
        required
        value={phone}
        error={phoneInvalid ? t('test.phoneInvalid') : null}
        onChange={setPhone}
      />
      <TextAreaField
        id="sms-test-message"
        label={t('test.message')}
        hint={t('test.messageHint')}
        maxLength={320}
        rows={2}
        value={message}
        onChange={setMessage}
      />
      <SubmitButton busy={action.busy} busyLabel={t('test.sending')}>
        {t('test.send')}
      </SubmitButton>
    </form>
  );
}

/** Admin: the Textbelt key, its balance, a test message, and the messages sent with their delivery status. */
export default function Sms() {
  const { t, i18n } = useTranslation(['sms', 'admin']);
  const token = useSnapshot(adminTextbeltSmsStore.state);
  const list = useSnapshot(smsMessagesStore.state);
  const query = useSnapshot(smsQuery);
  const [refreshing, setRefreshing] = useState(false);
  // What the refresh found (its counts) or why it failed: worded at render, so a language switch re-words it.
  const [note, setNote] = useState<StatusRefresh | Error | null>(null);

  useEffect(() => {
    void adminTextbeltSmsStore.load();
    void loadSmsMessages({ page: 1 });
  }, []);

  async function refresh() {
    setRefreshing(true);
    setNote(null);
    try {
      const r = await refreshSmsStatuses();
      setNote(r);
    } catch (e) {
      setNote(asError(e));
    } finally {
      setRefreshing(false);
    }
  }

  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  const messages = (list.data?.messages ?? []) as readonly SmsMessage[];
  const current = token.data?.token ?? null;

  return (
    <section aria-labelledby="sms-title" style={{ display: 'grid', gap: 20 }}>
      <div>
        <h1 id="sms-title">{t('title')}</h1>
        <p>{t('intro')}</p>
      </div>
      <LoadState loading={token.loading && !token.data} error={token.error} />
      {token.data && (
        <>
          <KeyForm current={current} />
          <Balance hasKey={current !== null} />
        </>
      )}
      <TestForm />

      <section aria-labelledby="sms-messages-title">
        <h2 id="sms-messages-title">{t('messages.title')}</h2>
        {list.data && !list.data.configured && <p className="alert alert-info">{t('messages.outboxNote')}</p>}
        <BusyButton className="btn btn-white" busy={refreshing} onClick={() => void refresh()}>
          {refreshing ? t('messages.refreshing') : t('messages.refresh')}
        </BusyButton>
        {note && (
          <div
            role={note instanceof Error ? 'alert' : 'status'}
            className={`alert ${note instanceof Error ? 'alert-error' : 'alert-success'}`}
            style={{ marginTop: 12 }}
          >
            {note instanceof Error ? errorMessage(note) : t('messages.refreshed', note)}
          </div>
        )}
        <LoadState loading={list.loading && !list.data} error={list.error} />
        {list.data && !messages.length && <p>{t('messages.empty')}</p>}
        {messages.length > 0 && (
          <div style={{ overflowX: 'auto', marginTop: 12 }}>
            <table className="data" aria-busy={list.loading || undefined} aria-label={t('messages.title')}>
              <caption className="visually-hidden">{t('messages.total', { count: list.data?.total ?? 0 })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('messages.sentAt')}</th>
                  <th scope="col">{t('messages.to')}</th>
                  <th scope="col">{t('messages.purpose')}</th>
                  <th scope="col">{t('messages.text')}</th>
                  <th scope="col">{t('messages.status')}</th>
                  <th scope="col">{t('messages.textId')}</th>
                </tr>
              </thead>
              <tbody>
                {messages.map((m) => (
                  <tr key={m.id}>
                    <td style={{ whiteSpace: 'nowrap' }}>
                      <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
                    </td>
                    <td style={{ whiteSpace: 'nowrap' }}>{m.to}</td>
                    <td>{t(`purpose.${m.purpose}`)}</td>
                    <td style={{ overflowWrap: 'anywhere', maxWidth: 360 }}>{m.text}</td>
                    <td>
                      <span className={`${styles.badge} ${tone[m.status] ?? ''}`}>{statusText(t, m.status)}</span>
                      {failureText(t, m, i18n.language) && <div className={styles.meta}>{failureText(t, m, i18n.language)}</div>}
                    </td>
                    <td>{m.textId ? <code>{m.textId}</code> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager
          label={t('messages.pages')}
          page={query.page}
          pageSize={query.pageSize}
          total={list.data?.total ?? 0}
          disabled={list.loading}
          onPage={(page) => void loadSmsMessages({ page })}
        />
      </section>
    </section>
  );
}
