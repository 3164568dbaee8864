import { afterEach, describe, expect, it } from 'vitest';
import { availabilityOf, formValuesOf, type AdFormValues } from '../components/market/adForm';
import { readAdDraft, saveAdDraft, clearAdDraft } from './adDraft';

// An edit's draft read back after a reload: a day whose hours end at 24:00 (no time field shows
// it) keeps the ad's own hours when the row was not touched, as the open form does.
describe('an edit draft kept over a reload', () => {
  afterEach(() => clearAdDraft());

  it('keeps the ad’s own end at 24:00 for a day the provider did not touch', () => {
    const base: AdFormValues = formValuesOf({
      listingType: 'female-escorts',
      title: 'Evenings downtown',
      description: 'A description long enough for the form.',
      age: '25',
      state: { id: 'ny', name: 'New York', slug: 'new-york' },
      city: { id: 'nyc', name: 'New York', slug: 'new-york' },
      phone: '+12125550100',
      details: {
        rates: [],
        incall: true,
        outcall: false,
        availability: { mon: { from: '00:00', to: '24:00' }, fri: { from: '20:00', to: '24:00' } },
      },
    } as unknown as Parameters<typeof formValuesOf>[0]);
    saveAdDraft('u1', { ...base, title: 'Evenings downtown, now with a new title' }, base, { adId: 'ad1', basis: 'v1' });
    const kept = readAdDraft('u1', base, { adId: 'ad1' });
    expect(kept?.values.title).toBe('Evenings downtown, now with a new title');
    expect(availabilityOf(kept!.values.availability)).toEqual({ mon: { from: '00:00', to: '24:00' }, fri: { from: '20:00', to: '24:00' } });
  });
});
