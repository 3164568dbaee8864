import { useState } from 'react';
import { useSearch } from 'wouter';
import { useTranslation } from 'react-i18next';
import { sessionApi } from '../../api/session';
import { FormError, FormSuccess } from '../../components/forms/FormError';
import { useFormAction } from '../../components/forms/useFormAction';
import { AuthCard } from './AuthCard';

/** The page of the reminder e-mails' footer link: one press turns reminder e-mails off (no sign-in needed). */
export default function Unsubscribe() {
  const { t } = useTranslation('auth');
  const params = new URLSearchParams(useSearch());
  const u = params.get('u') ?? '';
  const token = params.get('t') ?? '';
  const [done, setDone] = useState(false);
  const action = useFormAction();

  return (
    <AuthCard title={t('unsubscribe.title')}>
      {done ? (
        // Takes focus: the pressed button is gone with the form, and a screen reader reads the outcome.
        <FormSuccess message={t('unsubscribe.done')} focus />
      ) : (
        <>
          <p>{t('unsubscribe.intro')}</p>
          <FormError message={!u || !token ? t('unsubscribe.incomplete') : action.error} />
          <button
            type="button"
            className="btn btn-primary"
            disabled={!u || !token || action.busy}
            onClick={() => void action.run(async () => (await sessionApi.unsubscribe({ u, t: token }), true)).then((ok) => ok && setDone(true))}
          >
            {t('unsubscribe.confirm')}
          </button>
        </>
      )}
    </AuthCard>
  );
}
