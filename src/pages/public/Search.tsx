import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Search() {
  return <PagePlaceholder titleKey="search" />;
}
