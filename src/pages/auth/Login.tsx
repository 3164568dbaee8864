import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Login() {
  return <PagePlaceholder titleKey="login" />;
}
