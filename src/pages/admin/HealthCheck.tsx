import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function HealthCheck() {
  return <PagePlaceholder titleKey="adminHealthCheck" />;
}
