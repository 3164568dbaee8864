import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function CronJobs() {
  return <PagePlaceholder titleKey="adminCronJobs" />;
}
