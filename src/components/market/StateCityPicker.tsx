import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { statesStore, citiesForStateStore } from '../../state/locations';
import { errorMessage } from '../../api/client';

interface Props {
  stateId: string;
  cityId: string;
  onChange: (v: { stateId: string; cityId: string }) => void;
  stateError?: string | null;
  cityError?: string | null;
  required?: boolean;
}

/** State select, then city select; the cities load whenever the state changes. */
export function StateCityPicker({ stateId, cityId, onChange, stateError, cityError, required }: Props) {
  const { t } = useTranslation('market');
  const states = useSnapshot(statesStore.state);
  const cities = useSnapshot(citiesForStateStore.state);
  const sid = useId();
  const cid = useId();

  useEffect(() => {
    if (!statesStore.state.data && !statesStore.state.loading) void statesStore.load();
  }, []);
  useEffect(() => {
    if (stateId) void citiesForStateStore.load(stateId);
  }, [stateId]);

  // The shared city list may still hold another state's cities while the new ones load.
  const cityList = stateId && cities.data?.every((c) => c.stateId === stateId) ? cities.data : [];

  return (
    <>
      <div className="field">
        <label htmlFor={sid}>{t('form.state')}</label>
        <select
          id={sid}
          value={stateId}
          required={required}
          aria-invalid={stateError ? true : undefined}
          aria-describedby={stateError ? `${sid}-e` : undefined}
          onChange={(e) => onChange({ stateId: e.target.value, cityId: '' })}
        >
          <option value="">{states.loading && !states.data ? t('loading') : t('form.chooseState')}</option>
          {states.data?.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        {stateError && (
          <span id={`${sid}-e`} className="field-error">
            {stateError}
          </span>
        )}
        {states.error && <span className="field-error">{errorMessage(states.error)}</span>}
      </div>
      <div className="field">
        <label htmlFor={cid}>{t('form.city')}</label>
        <select
          id={cid}
          value={cityId}
          required={required}
          disabled={!stateId}
          aria-invalid={cityError ? true : undefined}
          aria-describedby={cityError ? `${cid}-e` : undefined}
          aria-busy={cities.loading || undefined}
          onChange={(e) => onChange({ stateId, cityId: e.target.value })}
        >
          <option value="">{!stateId ? t('form.chooseStateFirst') : cities.loading ? t('loading') : t('form.chooseCity')}</option>
          {cityList.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        {cityError && (
          <span id={`${cid}-e`} className="field-error">
            {cityError}
          </span>
        )}
      </div>
    </>
  );
}
