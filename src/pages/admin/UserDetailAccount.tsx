// The user screen's account trail: sign-ins, legal holds (released from here), related accounts and staff actions.
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { UserDetail } from '../../api/moderation';
import { compactJson } from '../../state/audit';
import { SearchLink, UserLink } from '../../components/moderation/ModBadges';
import { dateTimeLabel } from '../../components/market/labels';
import { Section } from './UserDetailSection';
import type { Dialog } from './UserDetailDialogs';

type Detail = Snapshot<UserDetail>;

export function UserSignIns({ current }: { current: Detail }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
  );
}

export function UserHolds({ current, self, setDialog }: { current: Detail; self: boolean; setDialog: (dialog: Dialog) => void }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
              <td id={`hold-reason-${h.id}`} style={{ whiteSpace: 'pre-wrap' }}>
                {h.reason}
              </td>
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
                        aria-describedby={`hold-reason-${h.id}`} // which hold: its reason, read after "Release"
                        onClick={() => setDialog({ kind: 'release', hold: { id: h.id, targetType: h.targetType, targetId: h.targetId } })}
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
  );
}

export function UserRelated({ current }: { current: Detail }) {
  const { t } = useTranslation(['moderation', 'payments']);
  return (
    <Section id="user-related" title={t('user.related')} count={current.related.length}>
      <ul>
        {current.related.map((r) => (
          <li key={r.id}>
            <UserLink id={r.id} label={r.email} /> ({r.nickname}) — {r.reasons.map((x) => t(`related.${x}`)).join(', ')}
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function UserAudit({ current }: { current: Detail }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
  );
}
