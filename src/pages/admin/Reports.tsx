import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Reports() {
  return <PagePlaceholder titleKey="adminReports" />;
}
