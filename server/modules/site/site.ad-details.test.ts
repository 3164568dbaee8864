import { beforeEach, describe, expect, it } from 'vitest';
import type { TestContext, TestUser } from '../../test/harness.ts';
import { liveAd, placeIn, type Place } from '../ads/ads.testkit.ts';
import { renderedSiteEach } from './site.testkit.ts';

// The ad page as the server renders it (and the browser hydrates it): what it says about the ad's
// hours and how it lays out the ad's own text.

const site = renderedSiteEach();
let ctx: TestContext;
let owner: TestUser;
let admin: TestUser;
let ny: Place;
beforeEach(() => ({ ctx, owner, admin, ny } = site));

const get = (url: string) => ctx.app.inject({ method: 'GET', url });
const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';
/** The text of the ad page's rates and hours section (named `label`), tags stripped. */
const hoursSection = (html: string, label = 'Rates and hours') =>
  (new RegExp(`<section[^>]*aria-label="${label}"[^>]*>([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
const cityOf = async (id: string) => (await get(`/api/ads/${id}`)).json().ad.city.name as string;

describe('the hours on an ad page', () => {
  // Hours are stored as their provider typed them ('HH:MM', no zone) and mean the local time of the
  // ad's city: the page says so, naming the city, for a visitor in New York reading a Los Angeles
  // ad's "Friday 20:00–02:00" cannot tell otherwise whether that is Pacific or Eastern time. An ad
  // moved to another city keeps its digits, which are then that city's local time, as the page says.
  it("names the ad's city as the time zone of its hours, in each language, and the new city once the ad moves", async () => {
    const la = await placeIn(ctx, 'ca', 0);
    const ad = await liveAd(ctx, owner, admin, la, { availability: JSON.stringify({ fri: { from: '20:00', to: '02:00' } }) });
    const city = await cityOf(ad.id);
    const res = await get(`/ad/${ad.id}`);
    expect(res.statusCode).toBe(200);
    expect(hoursSection(res.body)).toContain(` Hours (local time in ${city}) Friday 20:00–02:00 `);
    expect(hoursSection((await get(`/es/ad/${ad.id}`)).body, 'Tarifas y horario')).toContain(` Horario (hora local de ${city}) Viernes 20:00–02:00 `);
    expect(hoursSection((await get(`/pt/ad/${ad.id}`)).body, 'Valores e horários')).toContain(` Horários (hora local de ${city}) Sexta-feira 20:00–02:00 `);

    const moved = await ctx.app.inject({
      method: 'PUT',
      url: `/api/update-ad-location/${ad.id}`,
      headers: { cookie: owner.cookie },
      payload: { stateId: ny.stateId, cityId: ny.cityId },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const nyCity = await cityOf(ad.id);
    expect(nyCity).not.toBe(city);
    expect(hoursSection((await get(`/ad/${ad.id}`)).body)).toContain(` Hours (local time in ${nyCity}) Friday 20:00–02:00 `);
  });
});

describe("an ad's own text on its page", () => {
  // An ad written in Hebrew or Arabic inside the site's left-to-right page: without a direction of
  // its own the browser lays it out left to right ("מחיר 200 לשעה" reads in the wrong order, its
  // punctuation on the wrong side). Its title and description take the direction of their first
  // strong letter (dir="auto"), in the server's HTML as in the browser's.
  it('renders the title and description with dir="auto"', async () => {
    const title = 'דנה, נעימה ודיסקרטית! 200$ לשעה';
    const description = 'שלום! אני דנה, 30, בניו יורק. מחיר 200 לשעה, 350 לשעתיים — התקשרו בכל שעה, בתיאום מראש בלבד.';
    const ad = await liveAd(ctx, owner, admin, ny, { title, description });
    const root = rootOf((await get(`/ad/${ad.id}`)).body);
    const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(root).toMatch(new RegExp(`<h1 dir="auto"[^>]*>${literally(title)}</h1>`));
    expect(root).toMatch(new RegExp(`<p dir="auto"[^>]*>${literally(description)}</p>`));
  });
});
