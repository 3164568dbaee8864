import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ApprovedUsers() {
  return <PagePlaceholder titleKey="masterApprovedUsers" />;
}
