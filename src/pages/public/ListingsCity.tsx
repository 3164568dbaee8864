import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ListingsCity() {
  return <PagePlaceholder titleKey="listingsCity" />;
}
