import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Agreement() {
  return <PagePlaceholder titleKey="agreement" />;
}
