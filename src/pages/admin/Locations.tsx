import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Locations() {
  return <PagePlaceholder titleKey="adminLocations" />;
}
