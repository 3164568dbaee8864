import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ReportCrime() {
  return <PagePlaceholder titleKey="reportCrime" />;
}
