import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Pricing() {
  return <PagePlaceholder titleKey="adminPricing" />;
}
