import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function PendingUsers() {
  return <PagePlaceholder titleKey="masterPendingUsers" />;
}
