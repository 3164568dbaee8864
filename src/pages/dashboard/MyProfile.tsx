import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function MyProfile() {
  return <PagePlaceholder titleKey="myProfile" />;
}
