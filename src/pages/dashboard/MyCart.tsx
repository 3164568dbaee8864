import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function MyCart() {
  return <PagePlaceholder titleKey="myCart" />;
}
