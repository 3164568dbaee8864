import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { loadProfile, profileStore } from '../../state/profile';
import { Loading } from '../../components/Loading';
import { FormError } from '../../components/forms/FormError';
import { ProfileCard } from './profile/ProfileCard';
import { NicknameForm } from './profile/NicknameForm';
import { PasswordForm } from './profile/PasswordForm';
import { EmailForm } from './profile/EmailForm';
import { PhoneSection } from './profile/PhoneSection';
import { AvatarForm } from './profile/AvatarForm';
import { DeleteAccount } from './profile/DeleteAccount';

export default function MyProfile() {
  const { t } = useTranslation('profile');
  const { data: profile, error, loading } = useSnapshot(profileStore.state);

  useEffect(() => {
    void loadProfile();
  }, []);

  return (
    // One column as wide as the screen, not as its widest card's narrowest width (a phone scrolled sideways).
    <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: 20, maxWidth: 760 }}>
      <h1 style={{ margin: 0 }}>{t('title')}</h1>
      <FormError message={error} />
      {!profile && loading && <Loading />}
      {profile && (
        <>
          <ProfileCard profile={profile} />
          <AvatarForm />
          <NicknameForm current={profile.nickname} />
          <EmailForm current={profile.email} />
          <PhoneSection phone={profile.phone} verified={profile.phoneVerified} />
          <PasswordForm />
          <DeleteAccount />
        </>
      )}
    </div>
  );
}
