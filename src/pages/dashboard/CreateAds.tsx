import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function CreateAds() {
  return <PagePlaceholder titleKey="createAds" />;
}
