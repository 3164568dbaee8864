// The user screen's lists of what the user posted: their ads, reports about them, and refused ad texts.
import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { UserDetail } from '../../api/moderation';
import { HeldBadge, ModStatus, SearchLink } from '../../components/moderation/ModBadges';
import { dateLabel, dateTimeLabel } from '../../components/market/labels';
import { Section } from './UserDetailSection';

type Detail = Snapshot<UserDetail>;

export function UserAds({ current }: { current: Detail }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
  );
}

export function UserReports({ current, self }: { current: Detail; self: boolean }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
  );
}

export function UserScreening({ current }: { current: Detail }) {
  const { t, i18n } = useTranslation(['moderation', 'payments']);
  const lng = i18n.language;
  return (
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
  );
}
