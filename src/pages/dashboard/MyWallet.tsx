import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function MyWallet() {
  return <PagePlaceholder titleKey="myWallet" />;
}
