import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function ListingsUs() {
  return <PagePlaceholder titleKey="listingsUs" />;
}
