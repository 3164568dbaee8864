import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Register() {
  return <PagePlaceholder titleKey="register" />;
}
