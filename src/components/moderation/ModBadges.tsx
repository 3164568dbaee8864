import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { useTranslation } from 'react-i18next';
import { pathFor, routes } from '../../app/routes';
import styles from '../market/market.module.css';

const tone: Record<string, string> = {
  approved: styles.badgeOn,
  in_review: styles.badgeWarn,
  unpaid: styles.badgeWarn,
  rejected: styles.badgeBad,
  disabled: styles.badgeBad,
  deleted: styles.badgeBad,
  expired: '',
};

/** An ad's status in staff screens, 'deleted' (kept under a legal hold) included: a word, not only a colour. */
export function ModStatus({ status }: { status: string }) {
  const { t } = useTranslation('moderation');
  return <span className={`${styles.badge} ${tone[status] ?? ''}`}>{t(`status.${status}`, { defaultValue: status })}</span>;
}

/** Says a legal hold covers this (an ad, an account). */
export function HeldBadge() {
  const { t } = useTranslation('moderation');
  return (
    <span className={`${styles.badge} ${styles.badgeWarn}`} title={t('held.title')}>
      {t('held.badge')}
    </span>
  );
}

/**
 * A link to the user screen of an account (every place a user appears links here); `name` names
 * the account when the label does not. The link's name starts with the words it shows ("Owner’s
 * page: ann@example.com"), so that a voice user who says what they see reaches it (WCAG 2.5.3).
 */
export function UserLink({ id, label, name }: { id: string; label: string; name?: string }) {
  const { t } = useTranslation('moderation');
  const accessibleName = name ? t('user.named', { label, name }) : t('user.open', { name: label });
  return (
    <Link href={pathFor(routes.adminUser, { id })} aria-label={accessibleName} style={{ overflowWrap: 'anywhere' }}>
      {label}
    </Link>
  );
}

/** A link to the search screen finding this text (an ad id, a phone). */
export function SearchLink({ query, children }: { query: string; children: ReactNode }) {
  return <Link href={`${routes.adminSearchAds}?query=${encodeURIComponent(query)}`}>{children}</Link>;
}
