import { PagePlaceholder } from '../../components/PagePlaceholder';

export default function Home() {
  return <PagePlaceholder titleKey="home" />;
}
