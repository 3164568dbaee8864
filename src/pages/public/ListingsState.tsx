import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ListingsState() {
  return <PagePlaceholder titleKey="listingsState" />;
}
