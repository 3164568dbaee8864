import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function LawEnforcement() {
  return <PagePlaceholder titleKey="lawEnforcement" />;
}
