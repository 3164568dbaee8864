import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function PendingAds() {
  return <PagePlaceholder titleKey="adminPendingAds" />;
}
