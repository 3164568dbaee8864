import { useTranslation } from 'react-i18next';
import s from './layout.module.css';
import market from '../market/market.module.css';

/** The two adult-content rating badges (RTA and ASACP), drawn for this product as SVG files. */
export function Badges() {
  const { t } = useTranslation('public');
  return (
    <div className={s.badges} role="group" aria-label={t('footer.badges')}>
      <a href="https://www.rtalabel.org/" target="_blank" rel="noopener noreferrer">
        <img src="/badges/rta.svg" alt={t('footer.rta')} width={109} height={40} loading="lazy" decoding="async" />
      </a>
      <a href="https://www.asacp.org/" target="_blank" rel="noopener noreferrer">
        <img src="/badges/asacp.svg" alt={t('footer.asacp')} width={120} height={40} loading="lazy" decoding="async" />
      </a>
    </div>
  );
}

/** On an ad whose phone is its owner's verified phone (public ad JSON `phoneVerified`): cards and the ad page. */
export function PhoneVerifiedBadge() {
  const { t } = useTranslation('public');
  return (
    <span className={`${market.badge} ${market.badgeOn}`} title={t('adBadges.phoneVerifiedTitle')} style={{ whiteSpace: 'nowrap' }}>
      <span aria-hidden="true">✓ </span>
      {t('adBadges.phoneVerified')}
    </span>
  );
}
