import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeUser, type TestContext, type TestUser } from '../../test/harness.ts';
import { HOUR_MS } from '../../core/clock.ts';
import { png } from '../uploads/test-images.ts';
import { adForm, goodFields, placeIn, postAdRaw, type Place } from './ads.testkit.ts';
import { EDITS_PER_HOUR } from './ads.manage.service.ts';

// "Every version is kept" (PRODUCT §5): each edit stores a whole version of the ad (or a revision),
// and one the screening refuses its text in screening_log, for good. Edits are limited per user as
// posts are, the screening's refusals counted too.

let ctx: TestContext;
afterEach(() => ctx.close());

/** A valid description, told apart by `n`. */
const text = (n: string) => `${n}: friendly, discreet and punctual. Dinner dates and travel, by appointment only.`;

const edit = (u: TestUser, ad: { id: string; photos: { url: string }[] }, fields: Record<string, string>) => {
  const form = adForm(fields, []);
  form.append('keepPhotos', JSON.stringify([ad.photos[0].url]));
  return ctx.app.inject({ method: 'PUT', url: `/api/ads/${ad.id}`, headers: { cookie: u.cookie }, payload: form });
};

describe('the edit limit', () => {
  it('editing drafts without pause is limited per user, refused edits counted, until the hour has passed', async () => {
    ctx = await createTestApp();
    const ny: Place = await placeIn(ctx, 'ny');
    const [u, other] = [await makeUser(ctx), await makeUser(ctx)];
    const post = async (who: TestUser) => {
      const res = await postAdRaw(ctx, who, goodFields(ny), [await png(16, 16)]);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().ad as { id: string; photos: { url: string }[] };
    };
    const [a, b, others] = [await post(u), await post(u), await post(other)];
    const refused = goodFields(ny, { title: 'Sweet teen new in town' });
    const answers: string[] = [];
    for (let i = 0; i < EDITS_PER_HOUR; i++) {
      // Two ads of one account share the limit; half the edits are refused by the screening.
      const res = await edit(u, i % 2 ? a : b, i < EDITS_PER_HOUR / 2 ? goodFields(ny, { description: text(`Edit ${i}`) }) : refused);
      answers.push(`${res.statusCode} ${res.statusCode === 200 ? '' : res.json().code}`);
    }
    expect(new Set(answers)).toEqual(new Set(['200 ', '400 ad.screened_wording']));
    const over = await edit(u, a, goodFields(ny, { description: text('One too many') }));
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'ad.edit_limit', params: { max: EDITS_PER_HOUR } });
    const versions = await ctx.app.deps.db.selectFrom('ad_versions').select('id').where('ad_id', 'in', [a.id, b.id]).execute();
    expect(versions).toHaveLength(2 + EDITS_PER_HOUR / 2); // the posts, then the edits that went through
    const logged = await ctx.app.deps.db.selectFrom('screening_log').select('id').where('user_id', '=', u.id).execute();
    expect(logged).toHaveLength(EDITS_PER_HOUR / 2);
    // Another account is not limited by this one's edits; the account edits again an hour later.
    expect((await edit(other, others, goodFields(ny, { description: text('Another account') }))).statusCode).toBe(200);
    ctx.clock.advance(HOUR_MS);
    expect((await edit(u, a, goodFields(ny, { description: text('An hour later') }))).statusCode).toBe(200);
  }, 120_000);
});
