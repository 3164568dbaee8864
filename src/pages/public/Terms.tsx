import { SectionsPage } from '../../components/public/LegalPage';

export default function Terms() {
  return <SectionsPage ns="terms" toc />;
}
