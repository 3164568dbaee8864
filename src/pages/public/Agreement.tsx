import { useTranslation } from 'react-i18next';
import { SectionsPage } from '../../components/public/LegalPage';

export default function Agreement() {
  const { t } = useTranslation('pages');
  return <SectionsPage ns="agreement" after={<p className="alert alert-info">{t('agreement.help')}</p>} />;
}
