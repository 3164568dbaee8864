import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ContactUs() {
  return <PagePlaceholder titleKey="contactUs" />;
}
