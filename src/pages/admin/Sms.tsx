import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Sms() {
  return <PagePlaceholder titleKey="adminSms" />;
}
