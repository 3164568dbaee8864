import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ApprovedAds() {
  return <PagePlaceholder titleKey="adminApprovedAds" />;
}
