import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function AboutUs() {
  return <PagePlaceholder titleKey="aboutUs" />;
}
