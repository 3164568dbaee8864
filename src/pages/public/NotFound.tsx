import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function NotFound() {
  return <PagePlaceholder titleKey="notFound" />;
}
