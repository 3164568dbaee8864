// The ad form (src/components/market/adForm.ts, its own rules run here as the browser runs them)
// and the server (real HTTP through the harness) agree about an ad's fields: what the form lets
// through the server takes, and what the server refuses the form refuses before the upload.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { adForm, goodFields, jpegWithGps, placeIn, postAdRaw, type Place } from './ads.testkit.ts';
import { EMPTY_AD_FORM, adFieldsOf, formValuesOf, validateAdForm, type AdFormValues } from '../../../src/components/market/adForm.ts';

let ctx: TestContext;
let owner: TestUser;
let ny: Place;
beforeEach(async () => {
  ctx = await createTestApp();
  owner = await makeUser(ctx, { status: 'approved' });
  ny = await placeIn(ctx, 'ny');
});
afterEach(async () => ctx.close());

/** The post form filled as a provider would (one picked photo), with `over` typed in. */
const typed = (over: Partial<AdFormValues>): AdFormValues => ({
  ...EMPTY_AD_FORM,
  ...{ listingType: 'female_esc', title: 'Elegant companion downtown', age: '27', stateId: ny.stateId, cityId: ny.cityId, phone: '(212) 555-0142' },
  description: 'Friendly, discreet and punctual. Dinner dates and travel, by appointment only.',
  photos: [new File([new Uint8Array(10)], 'me.jpg', { type: 'image/jpeg' })],
  ...over,
});

describe('text with a lost character', () => {
  // Ad text copied from elsewhere often carries a "�" (an apostrophe mangled by a wrong encoding:
  // "I�m"), and half of a UTF-16 pair becomes one when the form is sent: the server refuses the
  // field (core/multipart.ts textField). The form refuses it first, showing where it is.
  it('is refused by the form, naming where, as the server refuses it', async () => {
    const photo = await jpegWithGps();
    const cases: [string, Partial<AdFormValues>, keyof AdFormValues, string][] = [
      [
        'a mangled apostrophe',
        { description: 'Hi gentlemen, I\uFFFDm new in town. Friendly, discreet and punctual, by appointment only.' },
        'description',
        'gentlemen, I\uFFFDm new',
      ],
      ['half of an emoji in the title', { title: 'Sweet and elegant \ud83d companion' }, 'title', 'elegant \uFFFD companion'],
    ];
    for (const [name, over, field, near] of cases) {
      const v = typed(over);
      expect(validateAdForm(v), name).toEqual({ [field]: { key: 'rules.lostCharacter', values: { near } } });
      const res = await postAdRaw(ctx, owner, adFieldsOf(v) as unknown as Record<string, string>, [photo]);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().params.field, name).toBe(field);
    }
    // Without it, both take the text.
    const fine = typed({ description: 'Hi gentlemen, I’m new in town. Friendly, discreet and punctual, by appointment only.' });
    expect(validateAdForm(fine)).toEqual({});
    expect((await postAdRaw(ctx, owner, adFieldsOf(fine) as unknown as Record<string, string>, [photo])).statusCode).toBe(201);
  });
});

describe('hours ending at 24:00', () => {
  // The server takes hours ending at '24:00' (contract/ad-extras.ts TIME); a time field cannot show
  // them (it shows 23:59 for a whole day, 00:00 for an end at midnight). Saved unchanged, the edit
  // form sends the ad's own hours back: a provider who only fixes a typo changes none of them.
  const availability = { mon: { from: '00:00', to: '24:00' }, fri: { from: '20:00', to: '24:00' } };
  async function postedAd() {
    const posted = await postAdRaw(ctx, owner, { ...goodFields(ny), availability: JSON.stringify(availability) }, [await jpegWithGps()]);
    expect(posted.statusCode, posted.body).toBe(201);
    return posted.json().ad;
  }
  async function save(ad: { id: string; photos: { url: string }[] }, v: AdFormValues) {
    const keepPhotos = JSON.stringify(ad.photos.map((p) => p.url));
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/ads/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: adForm({ ...(adFieldsOf(v) as unknown as Record<string, string>), keepPhotos }, []),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    return saved.json().ad.details.availability;
  }

  it('are kept when the edit form is saved with them unchanged, and shown as the time fields can', async () => {
    const ad = await postedAd();
    expect(ad.details.availability).toEqual(availability);
    const v = formValuesOf(ad);
    expect([v.availability.mon, v.availability.fri].map(({ on, from, to }) => ({ on, from, to }))).toEqual([
      { on: true, from: '00:00', to: '23:59' },
      { on: true, from: '20:00', to: '00:00' },
    ]);
    expect(validateAdForm(v, ad.photos.length)).toEqual({});
    expect(await save(ad, { ...v, title: 'Elegant companion uptown' })).toEqual(availability);
  });

  it('become what the time fields show once a day is changed', async () => {
    const ad = await postedAd();
    const v = formValuesOf(ad);
    const changed = { ...v, availability: { ...v.availability, mon: { ...v.availability.mon, from: '08:00' } } };
    expect(await save(ad, changed)).toEqual({ mon: { from: '08:00', to: '23:59' }, fri: availability.fri });
  });
});
