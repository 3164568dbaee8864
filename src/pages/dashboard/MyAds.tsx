import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function MyAds() {
  return <PagePlaceholder titleKey="myAds" />;
}
