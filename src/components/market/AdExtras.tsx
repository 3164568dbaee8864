import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { WEEKDAYS } from '../../../contract/ad-extras';
import type { AdDetails } from '../../api/ads';
import { formatUsd } from '../../lib/money';
import { dayLabel, durationLabel } from './labels';
import styles from './market.module.css';

// What an ad shows beyond its text (issue 13): rates, incall / outcall, hours by weekday, and the
// buttons that call or text its number. Plain markup: the ad page is rendered by the server too.
// Hours are stored as their provider typed them ('HH:MM', no zone) and mean the local time of the
// ad's city (moved to another city, the same digits are that city's local time): wherever they are
// shown they say so, for a visitor elsewhere cannot tell which zone they are in otherwise.

/** 'Incall and outcall', 'Incall only'…; null when the ad says neither. */
export function meetLabel(t: TFunction, d: Pick<AdDetails, 'incall' | 'outcall'>): string | null {
  if (d.incall && d.outcall) return t('market:details.both');
  if (d.incall) return t('market:details.incallOnly');
  if (d.outcall) return t('market:details.outcallOnly');
  return null;
}

/** A day's hours: '10:00–22:00'. */
const hoursText = (h: { from: string; to: string }) => `${h.from}–${h.to}`;

/** The ad page's rates, incall / outcall and hours (in `city`'s local time, named when given); nothing when the ad has none of them. */
export function AdDetailsView({ details, city, headingLevel = 2 }: { details: AdDetails | undefined; city?: string; headingLevel?: 2 | 3 }) {
  const { t, i18n } = useTranslation('market');
  if (!details) return null;
  const meet = meetLabel(t, details);
  const days = WEEKDAYS.filter((d) => details.availability[d]);
  if (!details.rates.length && !meet && !days.length) return null;
  const H = `h${headingLevel}` as const;
  return (
    <section className={styles.details} aria-label={t('details.label')}>
      {details.rates.length > 0 && (
        <>
          <H>{t('details.rates')}</H>
          <table className={styles.ratesTable}>
            <thead>
              <tr>
                <th scope="col">{t('details.duration')}</th>
                <th scope="col">{t('details.price')}</th>
              </tr>
            </thead>
            <tbody>
              {details.rates.map((r) => (
                <tr key={r.minutes}>
                  <td>{durationLabel(t, r.minutes)}</td>
                  <td>{formatUsd(r.priceCents, i18n.language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {meet && (
        <>
          <H>{t('details.meet')}</H>
          <p>{meet}</p>
        </>
      )}
      {days.length > 0 && (
        <>
          <H>{city ? t('details.hoursIn', { city }) : t('details.hoursLocal')}</H>
          <dl className={styles.hours}>
            {days.map((d) => (
              <div key={d}>
                <dt>{dayLabel(t, d)}</dt>
                <dd>{hoursText(details.availability[d]!)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}

/** One line for lists (my ads, review): '30 minutes $100.00 · 1 hour $180.00 · Incall only', amounts in the page's language `lng`. */
export function detailsSummary(t: TFunction, details: AdDetails | undefined, lng: string): string {
  if (!details) return '';
  const parts = details.rates.map((r) => `${durationLabel(t, r.minutes)} ${formatUsd(r.priceCents, lng)}`);
  const meet = meetLabel(t, details);
  if (meet) parts.push(meet);
  return parts.join(' · ');
}

/** The hours as one line ('Monday 10:00–22:00 · Friday 20:00–02:00 (local time)'); '' when none. */
export function hoursSummary(t: TFunction, details: AdDetails | undefined): string {
  if (!details) return '';
  const days = WEEKDAYS.filter((d) => details.availability[d]);
  if (!days.length) return '';
  return t('market:details.hoursSummary', { hours: days.map((d) => `${dayLabel(t, d)} ${hoursText(details.availability[d]!)}`).join(' · ') });
}

/** Call and text buttons for the ad's number (tel: and sms: links). */
export function ContactButtons({ phone }: { phone: string }) {
  const { t } = useTranslation('market');
  return (
    <div className={styles.contact}>
      <a className="btn btn-primary" href={`tel:${phone}`}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
          <path
            fill="currentColor"
            d="M6.62 10.79c1.44 2.83 3.76 5.14 6.59 6.59l2.2-2.2c.27-.27.67-.36 1.02-.24 1.12.37 2.33.57 3.57.57.55 0 1 .45 1 1V20c0 .55-.45 1-1 1-9.39 0-17-7.61-17-17 0-.55.45-1 1-1h3.5c.55 0 1 .45 1 1 0 1.25.2 2.45.57 3.57.11.35.03.74-.25 1.02l-2.2 2.2z"
          />
        </svg>
        {t('details.call')}
      </a>
      <a className="btn btn-info" href={`sms:${phone}`}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
          <path fill="currentColor" d="M6 3h14a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-4 4V5a2 2 0 0 1 2-2z" />
        </svg>
        {t('details.text')}
      </a>
    </div>
  );
}
