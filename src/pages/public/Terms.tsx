import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Terms() {
  return <PagePlaceholder titleKey="terms" />;
}
