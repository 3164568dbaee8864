import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function PromoCodes() {
  return <PagePlaceholder titleKey="adminPromoCodes" />;
}
