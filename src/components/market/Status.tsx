import { useTranslation } from 'react-i18next';
import { statusLabel } from './labels';
import { shownError } from '../../api/client';
import styles from './market.module.css';

const tone: Record<string, string> = {
  approved: styles.badgeOn,
  in_review: styles.badgeWarn,
  unpaid: styles.badgeWarn,
  rejected: styles.badgeBad,
  disabled: styles.badgeBad,
  expired: '',
};

/** An ad's status as a small coloured label. */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('market');
  return <span className={`${styles.badge} ${tone[status] ?? ''}`}>{statusLabel(t, status)}</span>;
}

/** Loading / error line shared by the lists. */
export function LoadState({ loading, error }: { loading: boolean; error: string | Error | null }) {
  // A kept error is worded here, at render: a language switch (which re-renders this) re-words it.
  const { t } = useTranslation('market');
  if (error)
    return (
      <div role="alert" className="alert alert-error">
        {shownError(error)}
      </div>
    );
  if (loading) return <p role="status">{t('loading')}</p>;
  return null;
}
