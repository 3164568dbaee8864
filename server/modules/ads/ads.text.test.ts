import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { goodFields, jpegWithGps, liveAd, ownerAdminNy, postAdRaw, type Place } from './ads.testkit.ts';

// An ad's title and description as a visitor reads them: the text its provider posted, with the
// emoji sequences and the letters' joiners it needs (contract/rules.ts cleanLine / cleanText).

let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(async () => {
  ({ ctx, owner, admin, ny } = await ownerAdminNy());
});
afterEach(async () => ctx.close());

describe('an ad’s text as stored and shown', () => {
  // Emoji joined by U+200D ZERO WIDTH JOINER (🏳️‍⚧️, 🏳️‍🌈, 👩‍❤️‍👨, 👨‍👩‍👧), a subdivision flag made of
  // tag characters (🏴󠁧󠁢󠁳󠁣󠁴󠁿) and the U+200C ZERO WIDTH NON-JOINER inside a Persian word (می‌خواهم)
  // come back as posted: without them the flags and families show as other emoji side by side
  // (a white flag and ⚧) and the Persian word is misspelt.
  it('shows the title and description with their emoji sequences and Persian non-joiners as posted', async () => {
    const title = 'Trans 🏳️‍⚧️ and pride 🏳️‍🌈 friendly 👩‍❤️‍👨';
    const description = 'می‌خواهم — friendly, discreet and punctual 🏴󠁧󠁢󠁳󠁣󠁴󠁿 👨‍👩‍👧 dinner dates and travel, by appointment.';
    const ad = await liveAd(ctx, owner, admin, ny, { title, description });
    const shown = (await ctx.app.inject({ method: 'GET', url: `/api/ads/${ad.id}` })).json().ad;
    expect({ title: shown.title, description: shown.description }).toEqual({ title, description });
  });

  // The joiners kept in the text do not hide a screened word from the screening, which reads the
  // text without any of them.
  it('still refuses a screened word with a joiner or non-joiner inside it', async () => {
    const jpeg = await jpegWithGps();
    for (const title of ['Sweet te\u200cen new in town', 'Sweet te\u200den new in town', 'Sweet تین te\u200cen 🏳️‍🌈 new']) {
      const res = await postAdRaw(ctx, owner, goodFields(ny, { title }), [jpeg]);
      expect(res.json(), JSON.stringify(title)).toMatchObject({ code: 'ad.screened_wording', params: { field: 'title', term: 'teen' } });
    }
  });
});
