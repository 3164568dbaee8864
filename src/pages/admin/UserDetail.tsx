import { useEffect, useState, type ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSnapshot } from 'valtio';
import { ApiError, asError, shownError } from '../../api/client';
import { usersApi } from '../../api/users';
import { evidenceUrl, type HoldTarget } from '../../api/moderation';
import { userDetailStore, placeHold, releaseHold } from '../../state/moderation';
import { isMaster, sessionStore } from '../../state/session';
import { compactJson } from '../../state/audit';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { Loading } from '../../components/Loading';
import { Money } from '../../components/market/Money';
import { ConfirmDialog } from '../../components/market/ConfirmDialog';
import { NoteDialog } from '../../components/moderation/NoteDialog';
import { HeldBadge, ModStatus, SearchLink, UserLink } from '../../components/moderation/ModBadges';
import { dateLabel, dateTimeLabel } from '../../components/market/labels';
import { routes } from '../../app/routes';

type Dialog = { kind: 'status'; to: 'suspended' | 'approved' } | { kind: 'hold' } | { kind: 'release'; targetType: HoldTarget; targetId: string } | null;
/** What an action did, worded at each render with the page's t: a language switch re-words it. */
type Done = { word: (t: TFunction<['moderation', 'payments']>) => string };

/**
 * How many rows a list shows: "(12)", or "(last 200 of 206)" when the server sent only the newest
 * of `total` (the user screen's lists stop at 200; the evidence export has them all).
 */
function Shown({ shown, total }: { shown: number; total?: number }) {
  const { t } = useTranslation('moderation');
  return <small style={{ color: 'var(--gray)', fontWeight: 400 }}>({total !== undefined && total > shown ? t('user.lastOf', { shown, total }) : shown})</small>;
}

function Section({ id, title, count, total, children }: { id: string; title: string; count: number; total?: number; children: ReactNode }) {
  const { t } = useTranslation('moderation');
  return (
    <section aria-labelledby={id} style={{ marginTop: 28 }}>
      <h2 id={id} style={{ fontSize: 19 }}>
        {title} <Shown shown={count} total={total} />
      </h2>
      {count === 0 ? <p>{t('user.nothing')}</p> : <div style={{ overflowX: 'auto' }}>{children}</div>}
    </section>
  );
}

/**
 * One user, whole: the account, their ads (deleted ones kept under a hold too), reports about
 * them, money (wallets, ledger, invoices), sign-ins, legal holds, related accounts, refused ad
 * texts and staff actions. Masters suspend or reinstate from here (with a confirmation naming the
 * user and the change), sending the status they saw: an account another master changed meanwhile
 * is refused (409), said so, and read again. Every staff member places or releases holds and
 * exports the evidence file. Lists longer than the screen shows say so ("last 200 of N"); the
 * account's own staff actions open in the audit log. Outcomes are kept unworded and worded at render (a language switch).
 */
export default function UserDetail() {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const { id = '' } = useParams<{ id: string }>();
  const { data, loading, error } = useSnapshot(userDetailStore.state);
  const { session } = useSnapshot(sessionStore);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<Error | null>(null);
  // A refusal that closed its dialog (the account changed meanwhile): shown on the page.
  const [pageError, setPageError] = useState<Error | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const lng = i18n.language;

  useEffect(() => {
    void userDetailStore.load(id);
  }, [id]);

  const current = data && data.user.id === id ? data : null;
  // The dialog stays open (busy) until the change is made and the user read again: closed first,
  // it would give focus back to its opener just before the reload removes it (Suspend gives way to
  // Reinstate, a released hold's button goes), and focus would fall to the page's body; closed
  // after, Dialog puts focus on the page's heading when the opener is gone.
  // An account changed meanwhile by another master (409 master.user_changed): the dialog asked
  // about a status no longer shown, so it closes, the refusal is said on the page, and the user is
  // read again.
  const run = async (action: () => Promise<unknown>, message: Done['word']) => {
    setBusy(true);
    setActionError(null);
    setPageError(null);
    setDone(null);
    try {
      await action();
      await userDetailStore.load(id);
      setDone({ word: message });
      setDialog(null);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'master.user_changed') {
        await userDetailStore.load(id);
        setPageError(e);
        setDialog(null);
      } else setActionError(asError(e));
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setDialog(null);
    setActionError(null);
  };

  if (!current) {
    return (
      <section aria-labelledby="user-title">
        <h1 id="user-title">{t('user.title')}</h1>
        <FormError message={error} />
        {loading && <Loading />}
      </section>
    );
  }
  const u = current.user;
  const name = `${u.nickname} (${u.email})`;
  const self = u.id === session.id;
  const canSetStatus = isMaster(session) && !self && !u.deleted;
  return (
    <section aria-labelledby="user-title">
      <h1 id="user-title" style={{ overflowWrap: 'anywhere' }}>
        {u.nickname} <small style={{ fontWeight: 400 }}>{u.email}</small>
      </h1>
      <p style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <span>{t(`userStatus.${u.status}`)}</span>
        {u.deleted && <strong>{t('user.deleted')}</strong>}
        {u.held && <HeldBadge />}
      </p>
      <dl style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '4px 16px' }}>
        <dt>{t('user.id')}</dt>
        <dd style={{ margin: 0 }}>
          <code>{u.id}</code>
        </dd>
        <dt>{t('user.phone')}</dt>
        <dd style={{ margin: 0 }}>
          {u.phone ? <SearchLink query={u.phone}>{u.phone}</SearchLink> : '—'} {u.phone && (u.phoneVerified ? t('user.verified') : t('user.unverified'))}
        </dd>
        <dt>{t('user.roles')}</dt>
        <dd style={{ margin: 0 }}>{u.roles.map((r) => t(`roles.${r}`)).join(', ') || '—'}</dd>
        <dt>{t('user.registered')}</dt>
        <dd style={{ margin: 0 }}>{dateTimeLabel(u.createdAt, lng)}</dd>
        {u.deletedAt && (
          <>
            <dt>{t('user.deletedAt')}</dt>
            <dd style={{ margin: 0 }}>{dateTimeLabel(u.deletedAt, lng)}</dd>
          </>
        )}
      </dl>

      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', margin: '12px 0' }}>
        {canSetStatus && u.status !== 'suspended' && (
          <button type="button" className="btn btn-danger" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'status', to: 'suspended' })}>
            {t('user.suspend')}
          </button>
        )}
        {canSetStatus && u.status === 'suspended' && (
          <button type="button" className="btn btn-success" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'status', to: 'approved' })}>
            {t('user.reinstate')}
          </button>
        )}
        {!self && (
          <button type="button" className="btn btn-white" aria-haspopup="dialog" onClick={() => setDialog({ kind: 'hold' })}>
            {t('holds.place')}
          </button>
        )}
        {!self && (
          <a className="btn btn-white" href={evidenceUrl(u.id)} download>
            {t('export.user')}
          </a>
        )}
        <Link className="btn btn-white" href={`${routes.adminAuditLog}?actorId=${encodeURIComponent(u.id)}`}>
          {t('user.actionsBy')}
        </Link>
      </div>
      {!isMaster(session) && <p style={{ color: 'var(--gray)' }}>{t('user.readOnly')}</p>}
      <FormError message={pageError} />
      <FormSuccess message={done ? done.word(t) : null} />

      <Section id="user-ads" title={t('user.ads')} count={current.ads.length} total={current.adsTotal}>
        <table className="data" aria-labelledby="user-ads">
          <thead>
            <tr>
              <th scope="col">{t('ad.photo')}</th>
              <th scope="col">{t('ad.title')}</th>
              <th scope="col">{t('ad.status')}</th>
              <th scope="col">{t('ad.phone')}</th>
              <th scope="col">{t('ad.created')}</th>
            </tr>
          </thead>
          <tbody>
            {current.ads.map((ad) => (
              <tr key={ad.id}>
                <td>{ad.thumbUrl ? <img src={ad.thumbUrl} alt="" width={64} height={48} style={{ objectFit: 'cover', borderRadius: 4 }} /> : '—'}</td>
                <th scope="row" style={{ fontWeight: 400 }}>
                  <SearchLink query={ad.id}>
                    <span dir="auto">{ad.title}</span>
                  </SearchLink>
                  <small style={{ display: 'block' }}>{ad.place}</small>
                </th>
                <td>
                  <ModStatus status={ad.status} /> {ad.held && <HeldBadge />}
                  {ad.rejectionReason && <small style={{ display: 'block' }}>{ad.rejectionReason}</small>}
                </td>
                <td>{ad.phone}</td>
                <td>{dateLabel(ad.createdAt, lng)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="user-reports" title={t('user.reports')} count={current.reports.length} total={current.reportsTotal}>
        <table className="data" aria-labelledby="user-reports">
          <thead>
            <tr>
              <th scope="col">{t('report.received')}</th>
              <th scope="col">{t('report.kind')}</th>
              <th scope="col">{t('report.message')}</th>
              <th scope="col">{t('report.status')}</th>
            </tr>
          </thead>
          <tbody>
            {current.reports.map((r) => (
              <tr key={r.id}>
                <td>{dateTimeLabel(r.createdAt, lng)}</td>
                <td>{t(`reportKind.${r.kind}`)}</td>
                <td style={{ whiteSpace: 'pre-wrap', maxWidth: 420 }}>{self ? <em>{t('report.aboutYourAd')}</em> : r.message}</td>
                <td>{t(`reportStatus.${r.status}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

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

      <Section id="user-sign-ins" title={t('user.signIns')} count={current.signIns.length} total={current.signInsTotal}>
        <table className="data" aria-labelledby="user-sign-ins">
          <thead>
            <tr>
              <th scope="col">{t('signIn.at')}</th>
              <th scope="col">{t('signIn.ip')}</th>
              <th scope="col">{t('signIn.result')}</th>
              <th scope="col">{t('signIn.userAgent')}</th>
            </tr>
          </thead>
          <tbody>
            {current.signIns.map((s, i) => (
              <tr key={`${s.at}-${i}`}>
                <td style={{ whiteSpace: 'nowrap' }}>{dateTimeLabel(s.at, lng)}</td>
                <td>
                  <code>{s.ip}</code>
                </td>
                <td>{s.success ? t('signIn.success') : t(`signIn.${s.failure ?? 'failed'}`)}</td>
                <td>
                  <small style={{ overflowWrap: 'anywhere' }}>{s.userAgent}</small>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="user-holds" title={t('holds.ofUser')} count={current.holds.length}>
        <table className="data" aria-labelledby="user-holds">
          <thead>
            <tr>
              <th scope="col">{t('holds.subject')}</th>
              <th scope="col">{t('holds.reason')}</th>
              <th scope="col">{t('holds.placed')}</th>
              <th scope="col">{t('holds.state')}</th>
            </tr>
          </thead>
          <tbody>
            {current.holds.map((h) => (
              <tr key={h.id}>
                <td>{h.targetType === 'user' ? t('holds.theAccount') : <SearchLink query={h.targetId}>{t('holds.ad', { id: h.targetId })}</SearchLink>}</td>
                <td style={{ whiteSpace: 'pre-wrap' }}>{h.reason}</td>
                <td>
                  {dateTimeLabel(h.placedAt, lng)}
                  {h.placedBy && <small style={{ display: 'block' }}>{h.placedBy}</small>}
                </td>
                <td>
                  {h.active ? (
                    <>
                      {t('holds.inForce')}{' '}
                      {!self && (
                        <button
                          type="button"
                          className="btn btn-sm btn-white"
                          aria-haspopup="dialog"
                          onClick={() => setDialog({ kind: 'release', targetType: h.targetType, targetId: h.targetId })}
                        >
                          {t('holds.release')}
                        </button>
                      )}
                    </>
                  ) : (
                    <>
                      {t('holds.released', { date: dateTimeLabel(h.releasedAt, lng), by: h.releasedBy ?? '' })}
                      {h.releaseNote && <small style={{ display: 'block' }}>{h.releaseNote}</small>}
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="user-related" title={t('user.related')} count={current.related.length}>
        <ul>
          {current.related.map((r) => (
            <li key={r.id}>
              <UserLink id={r.id} label={r.email} /> ({r.nickname}) — {r.reasons.map((x) => t(`related.${x}`)).join(', ')}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="user-screening" title={t('user.screening')} count={current.screening.length}>
        <table className="data" aria-labelledby="user-screening">
          <thead>
            <tr>
              <th scope="col">{t('screening.at')}</th>
              <th scope="col">{t('screening.term')}</th>
              <th scope="col">{t('ad.title')}</th>
            </tr>
          </thead>
          <tbody>
            {current.screening.map((s) => (
              <tr key={s.id}>
                <td>{dateTimeLabel(s.createdAt, lng)}</td>
                <td>
                  <mark>{s.term}</mark> ({t(`screening.fields.${s.field}`)})
                </td>
                <td dir="auto">{s.title}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      <Section id="user-audit" title={t('user.audit')} count={current.audit.length}>
        <table className="data" aria-labelledby="user-audit">
          <thead>
            <tr>
              <th scope="col">{t('audit.at')}</th>
              <th scope="col">{t('audit.by')}</th>
              <th scope="col">{t('audit.action')}</th>
              <th scope="col">{t('audit.after')}</th>
            </tr>
          </thead>
          <tbody>
            {current.audit.map((a) => (
              <tr key={a.id}>
                <td style={{ whiteSpace: 'nowrap' }}>{dateTimeLabel(a.at, lng)}</td>
                <td>{a.actorId ? <UserLink id={a.actorId} label={a.actorEmail ?? a.actorId} /> : t('audit.system')}</td>
                <td>
                  <code>{a.action}</code>
                  {a.targetType === 'ad' && a.targetId && (
                    <small style={{ display: 'block' }}>
                      <SearchLink query={a.targetId}>{a.targetId}</SearchLink>
                    </small>
                  )}
                </td>
                <td style={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 12, maxWidth: 360, overflowWrap: 'anywhere' }}>
                  <code>{compactJson(a.after)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>

      {dialog?.kind === 'status' && (
        <ConfirmDialog
          title={dialog.to === 'suspended' ? t('user.suspendTitle', { name }) : t('user.reinstateTitle', { name })}
          confirmLabel={dialog.to === 'suspended' ? t('user.suspendConfirm') : t('user.reinstateConfirm')}
          danger={dialog.to === 'suspended'}
          busy={busy}
          onCancel={close}
          onConfirm={() =>
            run(
              () => usersApi.updateStatus({ userId: u.id, status: dialog.to, from: u.status }),
              (tr) => tr('user.statusDone', { name, status: tr(`userStatus.${dialog.to}`) }),
            )
          }
        >
          <p>{t('user.statusChange', { from: t(`userStatus.${u.status}`), to: t(`userStatus.${dialog.to}`) })}</p>
          <p>{dialog.to === 'suspended' ? t('user.suspendEffect') : t('user.reinstateEffect')}</p>
          <FormError message={actionError} />
        </ConfirmDialog>
      )}
      {dialog?.kind === 'hold' && (
        <NoteDialog
          keepAs={`hold:user:${u.id}`}
          title={t('holds.placeTitle', { name })}
          label={t('holds.reasonLabel')}
          confirmLabel={t('holds.placeConfirm')}
          busy={busy}
          error={shownError(actionError)}
          onCancel={close}
          onConfirm={(reason) =>
            run(
              () => placeHold('user', u.id, reason),
              (tr) => tr('holds.placeDone', { name }),
            )
          }
        >
          <p>{t('holds.explain')}</p>
        </NoteDialog>
      )}
      {dialog?.kind === 'release' && (
        <NoteDialog
          keepAs={`release:${dialog.targetType}:${dialog.targetId}`}
          title={dialog.targetType === 'user' ? t('holds.releaseTitle', { name }) : t('holds.releaseAdTitle', { id: dialog.targetId })}
          label={t('holds.noteLabel')}
          confirmLabel={t('holds.releaseConfirm')}
          danger
          busy={busy}
          error={shownError(actionError)}
          onCancel={close}
          onConfirm={(note) =>
            run(
              () => releaseHold(dialog.targetType, dialog.targetId, note),
              (tr) => tr('holds.releaseDone'),
            )
          }
        >
          <p>{t('holds.releaseEffect')}</p>
        </NoteDialog>
      )}
    </section>
  );
}
