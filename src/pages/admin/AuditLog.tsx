import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function AuditLog() {
  return <PagePlaceholder titleKey="adminAuditLog" />;
}
