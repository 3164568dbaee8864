import { useTranslation } from 'react-i18next';
import type { Snapshot } from 'valtio';
import type { Profile } from '../../../api/profile';

// The badge's fill and text: the palette's deeper shades under white text, dark text on orange
// (as the buttons in global.css), so the status reads at a 4.5:1 contrast (WCAG AA).
const STATUS_LOOK: Record<string, { background: string; color: string }> = {
  approved: { background: '#2e7d32', color: '#fff' },
  pending: { background: 'var(--warning)', color: 'var(--black)' },
  suspended: { background: '#c62828', color: '#fff' },
};

/** Who the user is, as the server sees it. */
export function ProfileCard({ profile }: { profile: Snapshot<Profile> }) {
  const { t, i18n } = useTranslation('profile');
  const since = new Date(profile.createdAt);
  return (
    <section className="card" aria-labelledby="profile-card-title" style={{ display: 'flex', gap: 20, alignItems: 'center', flexWrap: 'wrap' }}>
      {profile.avatar ? (
        <img
          src={profile.avatar}
          alt={t('card.avatarAlt', { nickname: profile.nickname })}
          width={96}
          height={96}
          style={{ borderRadius: '50%', objectFit: 'cover' }}
        />
      ) : (
        <div
          aria-hidden="true"
          style={{
            width: 96,
            height: 96,
            borderRadius: '50%',
            background: 'var(--primary)',
            color: '#fff',
            display: 'grid',
            placeItems: 'center',
            fontSize: 40,
          }}
        >
          {profile.nickname.slice(0, 1).toUpperCase()}
        </div>
      )}
      <div style={{ minWidth: 0 }}>
        <h2 id="profile-card-title" style={{ margin: '0 0 4px' }}>
          {profile.nickname}
        </h2>
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
          <dt>{t('card.email')}</dt>
          <dd style={{ margin: 0, overflowWrap: 'anywhere' }}>{profile.email}</dd>
          <dt>{t('card.status')}</dt>
          <dd style={{ margin: 0 }}>
            <span
              data-status={profile.status}
              style={{ ...(STATUS_LOOK[profile.status] ?? { background: 'var(--gray)', color: '#fff' }), borderRadius: 10, padding: '1px 10px', fontSize: 13 }}
            >
              {t(`status.${profile.status}`)}
            </span>
          </dd>
          <dt>{t('card.roles')}</dt>
          <dd style={{ margin: 0 }}>{profile.roles.map((r) => t(`roles.${r}`)).join(', ')}</dd>
          {profile.phone && (
            <>
              <dt>{t('card.phone')}</dt>
              <dd style={{ margin: 0 }}>{profile.phone}</dd>
            </>
          )}
          {!Number.isNaN(since.getTime()) && (
            <>
              <dt>{t('card.memberSince')}</dt>
              <dd style={{ margin: 0 }}>{since.toLocaleDateString(i18n.language)}</dd>
            </>
          )}
        </dl>
        {profile.status === 'pending' && <p className="alert alert-info">{t('card.pendingNote')}</p>}
      </div>
    </section>
  );
}
