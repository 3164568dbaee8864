import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function MyDashboard() {
  return <PagePlaceholder titleKey="myDashboard" />;
}
