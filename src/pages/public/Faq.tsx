import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Faq() {
  return <PagePlaceholder titleKey="faq" />;
}
