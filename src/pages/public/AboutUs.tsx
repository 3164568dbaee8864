import { SectionsPage } from '../../components/public/LegalPage';

export default function AboutUs() {
  return <SectionsPage ns="aboutUs" />;
}
