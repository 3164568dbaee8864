import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function AdDetail() {
  return <PagePlaceholder titleKey="adDetail" />;
}
