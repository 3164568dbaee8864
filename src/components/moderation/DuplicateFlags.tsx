import { useTranslation } from 'react-i18next';
import type { DuplicateFlag } from '../../api/moderation';
import { SearchLink, UserLink } from './ModBadges';

/** Other accounts' ads with the same phone, a near-identical photo or the same text, for the reviewer: links to each ad and its owner. */
export function DuplicateFlags({ flags }: { flags: readonly DuplicateFlag[] }) {
  const { t } = useTranslation('moderation');
  if (!flags.length) return null;
  return (
    <div role="note" className="alert alert-info" style={{ margin: '8px 0', padding: '8px 12px' }}>
      <strong>{t('duplicates.title', { count: flags.length })}</strong>
      <ul style={{ margin: '4px 0 0', paddingLeft: 18 }}>
        {flags.map((f) => (
          <li key={`${f.kind}-${f.otherAdId}`}>
            {f.kind === 'photo' ? t('duplicates.photo', { distance: f.distance ?? 0 }) : t(`duplicates.${f.kind}`)}{' '}
            <SearchLink query={f.otherAdId}>{f.otherAdTitle ?? f.otherAdId}</SearchLink>
            {f.otherAdStatus && ` (${t(`status.${f.otherAdStatus}`)})`} — <UserLink id={f.otherOwner.id} label={f.otherOwner.email} />
          </li>
        ))}
      </ul>
    </div>
  );
}
