import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function PaymentServer() {
  return <PagePlaceholder titleKey="adminPaymentServer" />;
}
