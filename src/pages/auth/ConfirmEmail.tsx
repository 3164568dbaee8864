import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ConfirmEmail() {
  return <PagePlaceholder titleKey="confirmEmail" />;
}
