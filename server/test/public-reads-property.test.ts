import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asMaster, cookieOf, createTestApp, makeUser, type TestContext, type TestUser } from './harness.ts';
import { clientBuild } from './client-build.ts';
import { DAY_MS } from '../core/clock.ts';
import { findJob } from '../modules/cron/cron.jobs.ts';
import { runJob } from '../modules/cron/cron.service.ts';
import { adForm, decide, fundedUsd, goodFields, liveAd, pay, placeIn, postAd, type Place } from '../modules/ads/ads.testkit.ts';
import { SEO_LISTING_TYPES } from '../../contract/seo.ts';
import { walkSitemap } from '../modules/site/site.testkit.ts';

// The public reads are cached, and a change drops only the answers it can touch (issue #15:
// listings.tags.ts, the change log of migration 0011, the searches' match lists, the pages' cache).
// The danger of narrow invalidation is an answer left stale. Here a model of the public set (which
// ads show, where, in which order, with which title, until when) predicts every public read, and
// random sequences of what changes it (owners' online/offline, bumps, moves, edits approved or
// rejected by staff, renewals and deletions, an owner's account deleted; new ads submitted, then
// approved or rejected; staff disabling ads, suspending owners, closing cities and states; time
// passing, with and without the hourly expire-ads job) run through the real routes. After each
// change every read is asked again through the same caches, JSON API and served pages alike, and
// compared with the model's prediction: lists and their totals and pages, searches with and without
// a state, an ad's status and title, the numbers per city, state and type (home included), the home
// page in two languages, the states page and each state's page (their numbers), a city's page, a
// search's page, an ad's page in two languages, and the sitemap (exactly the pages that answer
// 200); first each owner's preview of their ads (which sees a hidden ad and must never be kept for
// the guests asked next). Each read is asked twice (the second from the caches); the change drops
// what it must; a stale answer fails the run with the steps that led to it.
//
// The first run is scripted (EVERY_CHANGE: each kind of change at least once), the rest random.
// Replay a failure with PUBLIC_READS_SEED=<seed> (fast-check prints the seed and path);
// PUBLIC_READS_RUNS=<n> runs more.

const SEED = process.env.PUBLIC_READS_SEED ? Number(process.env.PUBLIC_READS_SEED) : undefined;
const RUNS = process.env.PUBLIC_READS_RUNS ? Number(process.env.PUBLIC_READS_RUNS) : 5;

const TYPES = ['female_esc', 'female_rub'] as const;
/** Every listing type, as the home page counts them (the ads here are of the first two). */
const ALL_TYPES = ['female_esc', 'female_rub', 'shemale_esc'] as const;
type Type = (typeof TYPES)[number];
/** Words only titles carry (not in the description, nor in a place's name): what the searches ask for. */
const WORDS = ['juniper', 'saffron', 'cobalt', 'marigold'] as const;
const PAGE_SIZE = 2;
const BUMP_COOLDOWN_MS = 60_000;
const RENEW_COOLDOWN_MS = 60_000;

interface PlaceInfo extends Place {
  stateName: string;
  cityName: string;
}

/** An ad as the model knows it. */
interface MAd {
  id: string;
  owner: number;
  place: number;
  type: Type;
  title: string;
  /** An edit waiting for staff: its revision's id and title. */
  pending: { id: string; title: string; place: number } | null;
  /** pending: submitted and paid, waiting for staff; rejected: refused by them (neither ever public). */
  status: 'pending' | 'rejected' | 'approved' | 'disabled' | 'expired';
  /** Staff approved it once: deleted, its page answers 410 (one never published answers 404). */
  published: boolean;
  online: boolean;
  deleted: boolean;
  /** Order in the lists: the newest publication or bump is the highest. */
  seq: number;
  expiresAt: number;
  /** When its term began (approval, or a held term's start): the paid span is expiresAt − publishedAt. */
  publishedAt: number;
  /**
   * Its paid term waits (approved while its owner was not, or its place closed when that owner was
   * approved again): it shows nowhere, cannot run out, and starts whole when owner and place allow.
   */
  held: boolean;
  lastBump: number;
  lastRenew: number | null;
}

interface Model {
  ads: MAd[];
  ownersApproved: boolean[];
  /** Owners who deleted their account (and with it every ad of theirs). */
  ownersGone: boolean[];
  cityEnabled: boolean[];
  stateEnabled: Map<string, boolean>;
  nextSeq: number;
  termMs: number;
}

// ---------------------------------------------------------------------------------------------
// The model's predictions

function isPublic(m: Model, places: PlaceInfo[], a: MAd, now: number): boolean {
  const p = places[a.place];
  return (
    !a.deleted &&
    !a.held &&
    a.status === 'approved' &&
    a.online &&
    a.expiresAt > now &&
    m.ownersApproved[a.owner] &&
    m.cityEnabled[a.place] &&
    m.stateEnabled.get(p.stateId) === true
  );
}

/** A listing type's URL slug, and back (contract/seo.ts). */
const slugOf = (code: string) => SEO_LISTING_TYPES.find((t) => t.code === code)!.slug;
const codeOf = (slug: string) => SEO_LISTING_TYPES.find((t) => t.slug === slug)?.code ?? slug;

const newestFirst = (ads: MAd[]) => [...ads].sort((x, y) => y.seq - x.seq);

/** What a read must answer: its status and, for a 200, the part of the body that is compared. */
interface Expected {
  status: number;
  body?: unknown;
}

function expectList(ads: MAd[], page: number): Expected {
  const shown = ads.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  if (page > 1 && !shown.length) return { status: 404 };
  return { status: 200, body: { ids: shown.map((a) => a.id), titles: shown.map((a) => a.title), total: ads.length } };
}

function words(title: string): string[] {
  return title
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

interface Read {
  url: string;
  /** list-page: a served page listing ads (a city's, a search's), read as the ads it links in order. */
  kind: 'list' | 'search' | 'ad' | 'aggregate' | 'counts' | 'list-page' | 'ad-page' | 'home-page' | 'states-page' | 'state-page';
  expect: (now: number) => Expected;
  /** states-page: the states read (the model's; the other seeded states are listed too, with none). */
  only?: readonly string[];
}

function reads(places: PlaceInfo[], m: Model): Read[] {
  const out: Read[] = [];
  const states = [...new Map(places.map((p) => [p.stateId, p])).values()];
  const pub = (now: number) => newestFirst(m.ads.filter((a) => isPublic(m, places, a, now)));
  const stateOpen = (stateId: string) => m.stateEnabled.get(stateId) === true;
  const cityOpen = (i: number) => m.cityEnabled[i] && stateOpen(places[i].stateId);
  /** The states page: every open state listed with its number of public ads (of a type, or all). */
  const statesPage = (now: number, ofType: (a: MAd) => boolean): Expected => ({
    status: 200,
    body: states
      .filter((st) => stateOpen(st.stateId))
      .map((st) => `${st.stateSlug}:${pub(now).filter((a) => places[a.place].stateId === st.stateId && ofType(a)).length}`),
  });
  for (const page of [1, 2]) {
    for (const type of [undefined, ...TYPES]) {
      const t = type ? `&type=${type}` : '';
      out.push({
        url: `/api/listings?pageSize=${PAGE_SIZE}&page=${page}${t}`,
        kind: 'list',
        expect: (now) =>
          expectList(
            pub(now).filter((a) => !type || a.type === type),
            page,
          ),
      });
      for (const s of states) {
        out.push({
          url: `/api/listings?state=${s.stateSlug}&pageSize=${PAGE_SIZE}&page=${page}${t}`,
          kind: 'list',
          expect: (now) =>
            stateOpen(s.stateId)
              ? expectList(
                  pub(now).filter((a) => places[a.place].stateId === s.stateId && (!type || a.type === type)),
                  page,
                )
              : { status: 404 },
        });
      }
      places.forEach((c, i) => {
        out.push({
          url: `/api/listings?state=${c.stateSlug}&city=${c.citySlug}&pageSize=${PAGE_SIZE}&page=${page}${t}`,
          kind: 'list',
          expect: (now) =>
            cityOpen(i)
              ? expectList(
                  pub(now).filter((a) => a.place === i && (!type || a.type === type)),
                  page,
                )
              : { status: 404 },
        });
      });
    }
  }
  for (const w of WORDS) {
    out.push({
      url: `/api/search?query=${w}&pageSize=${PAGE_SIZE}`,
      kind: 'search',
      expect: (now) =>
        expectList(
          pub(now).filter((a) => words(a.title).includes(w)),
          1,
        ),
    });
    const s = states[0];
    out.push({
      url: `/api/search?query=${w}&state=${s.stateSlug}&type=${TYPES[0]}&pageSize=${PAGE_SIZE}`,
      kind: 'search',
      expect: (now) =>
        stateOpen(s.stateId)
          ? expectList(
              pub(now).filter((a) => words(a.title).includes(w) && places[a.place].stateId === s.stateId && a.type === TYPES[0]),
              1,
            )
          : { status: 404 },
    });
  }
  const byCount = (xs: { key: string; name: string; count: number }[]) =>
    xs
      .filter((x) => x.count > 0)
      .sort((x, y) => y.count - x.count || x.name.localeCompare(y.name))
      .map((x) => `${x.key}:${x.count}`);
  const home = (now: number): Expected => ({
    status: 200,
    body: {
      types: ALL_TYPES.map((t) => `${t}:${pub(now).filter((a) => a.type === t).length}`),
      states: byCount(
        states.map((st) => ({ key: st.stateSlug, name: st.stateName, count: pub(now).filter((a) => places[a.place].stateId === st.stateId).length })),
      ),
    },
  });
  out.push({ url: '/api/home', kind: 'counts', expect: home });
  // The home page in two languages shows the same numbers, as does the states page.
  out.push({ url: '/', kind: 'home-page', expect: home }, { url: '/es', kind: 'home-page', expect: home });
  const only = states.map((st) => st.stateSlug);
  out.push({ url: '/listings/us', kind: 'states-page', only, expect: (now) => statesPage(now, () => true) });
  // A state's page: its cities with public ads, largest first (then by name), each with its numbers per type.
  for (const st of states) {
    for (const type of [undefined, TYPES[0]]) {
      out.push({
        url: `/listings/us/${st.stateSlug}${type ? `?type=${slugOf(type)}` : ''}`,
        kind: 'state-page',
        expect: (now) => {
          if (!stateOpen(st.stateId)) return { status: 404 };
          const cities = places
            .map((p, i) => {
              const ads = pub(now).filter((a) => a.place === i && (!type || a.type === type));
              const byType = ALL_TYPES.map((t) => [t, ads.filter((a) => a.type === t).length] as const).filter(([, n]) => n > 0);
              return { p, count: ads.length, byType };
            })
            .filter((x) => x.p.stateId === st.stateId && x.count > 0)
            .sort((x, y) => y.count - x.count || x.p.cityName.localeCompare(y.p.cityName, 'en'));
          return { status: 200, body: cities.map((x) => `${x.p.citySlug}:${x.count}:${x.byType.map(([t, n]) => `${t}=${n}`).join(',')}`) };
        },
      });
    }
  }
  for (const type of TYPES) {
    out.push({
      url: `/api/users-ads-aggregate/us/${type}/states`,
      kind: 'counts',
      expect: (now) => ({
        status: 200,
        body: {
          states: byCount(
            states.map((st) => ({
              key: st.stateSlug,
              name: st.stateName,
              count: pub(now).filter((a) => places[a.place].stateId === st.stateId && a.type === type).length,
            })),
          ),
        },
      }),
    });
    for (const s of [undefined, ...states]) {
      out.push({
        url: `/api/users-ads-aggregate/us/${type}${s ? `?state=${s.stateSlug}` : ''}`,
        kind: 'aggregate',
        expect: (now) => {
          if (s && !stateOpen(s.stateId)) return { status: 404 };
          const counts = places
            .map((p, i) => ({ p, count: pub(now).filter((a) => a.place === i && a.type === type).length }))
            .filter((x) => x.count > 0 && (!s || x.p.stateId === s.stateId))
            .sort((x, y) => x.p.stateName.localeCompare(y.p.stateName) || y.count - x.count || x.p.cityName.localeCompare(y.p.cityName));
          return { status: 200, body: counts.map((x) => `${x.p.citySlug}:${x.count}`) };
        },
      });
    }
    const slug = slugOf(type);
    if (type === TYPES[0]) {
      // The search page (its first 20 results, as a visitor's first load)
      for (const w of WORDS) {
        out.push({
          url: `/search?query=${w}`,
          kind: 'list-page',
          expect: (now) => ({
            status: 200,
            body: pub(now)
              .filter((a) => words(a.title).includes(w))
              .slice(0, 20)
              .map((a) => a.id),
          }),
        });
      }
    }
    // The states page with this type: every open state with its number (the model's two here).
    out.push({
      url: `/listings/us?type=${slug}`,
      kind: 'states-page',
      only,
      expect: (now) => statesPage(now, (a) => a.type === type),
    });
    places.forEach((c, i) => {
      out.push({
        url: `/listings/us/${c.stateSlug}/${c.citySlug}/${slug}`,
        kind: 'list-page',
        expect: (now) =>
          cityOpen(i)
            ? {
                status: 200,
                body: pub(now)
                  .filter((a) => a.place === i && a.type === type)
                  .map((a) => a.id),
              }
            : { status: 404 },
      });
    });
  }
  return out;
}

/**
 * The ad detail (JSON and page) of one ad: 200 while public, 410 once its time ran out or it was
 * deleted, 404 while hidden (a held term has not run: 404 whatever its nominal end).
 */
function adStatus(m: Model, places: PlaceInfo[], a: MAd, now: number): Expected {
  if (a.deleted) return { status: a.published ? 410 : 404 };
  if (isPublic(m, places, a, now)) return { status: 200, body: { title: a.title, city: places[a.place].citySlug } };
  if (a.held) return { status: 404 };
  const ranOut = a.status === 'expired' || (a.status === 'approved' && a.expiresAt <= now);
  return { status: ranOut ? 410 : 404 };
}

// ---------------------------------------------------------------------------------------------
// What the system answers, in the shape the model predicts

/** A read as asked: by a guest, or with an owner's cookie. */
type Asked = Pick<Read, 'url' | 'kind' | 'only'> & { cookie?: string };

async function ask(ctx: TestContext, r: Asked): Promise<Expected> {
  const res = await ctx.app.inject({ method: 'GET', url: r.url, headers: { 'accept-encoding': 'br', ...(r.cookie ? { cookie: r.cookie } : {}) } });
  if (res.statusCode !== 200) return { status: res.statusCode };
  const body = res.headers['content-encoding'] === 'br' ? (await import('node:zlib')).brotliDecompressSync(res.rawPayload).toString('utf8') : res.body;
  switch (r.kind) {
    case 'list':
    case 'search': {
      const j = JSON.parse(body) as { ads: { id: string; title: string }[]; total: number };
      return { status: 200, body: { ids: j.ads.map((a) => a.id), titles: j.ads.map((a) => a.title), total: j.total } };
    }
    case 'aggregate': {
      const j = JSON.parse(body) as { locations: { citySlug: string; count: number }[] };
      return { status: 200, body: j.locations.map((l) => `${l.citySlug}:${l.count}`) };
    }
    case 'counts': {
      const j = JSON.parse(body) as {
        types?: { listingType: string; count: number }[];
        topStates?: { slug: string; count: number }[];
        states?: { stateSlug: string; count: number }[];
      };
      return j.types
        ? { status: 200, body: { types: j.types.map((t) => `${t.listingType}:${t.count}`), states: j.topStates!.map((x) => `${x.slug}:${x.count}`) } }
        : { status: 200, body: { states: j.states!.map((x) => `${x.stateSlug}:${x.count}`) } };
    }
    case 'ad': {
      const j = JSON.parse(body) as { ad: { title: string; city: { slug: string } } };
      return { status: 200, body: { title: j.ad.title, city: j.ad.city.slug } };
    }
    case 'ad-page': {
      const title = /<title>([^<]*) \| XG Marketplace<\/title>/.exec(body)?.[1] ?? null;
      const city = /href="(?:\/es|\/pt)?\/listings\/us\/[a-z0-9-]+\/([a-z0-9-]+)\//.exec(rootOf(body))?.[1] ?? null;
      return { status: 200, body: { title: title && unescapeHtml(title), city } };
    }
    case 'home-page': {
      const root = rootOf(body);
      // "3 ads", or the zero form ("no ads", "ningún anuncio", "nenhum anúncio")
      const types = [
        ...root.matchAll(/href="(?:\/es|\/pt)?\/listings\/us\?type=([a-z-]+)"[^>]*>[\s\S]*?<span[^>]*>(\d+|no ads|ningún anuncio|nenhum anúncio)/g),
      ].map((x) => `${codeOf(x[1])}:${/^\d+$/.test(x[2]) ? x[2] : '0'}`);
      const states = [...root.matchAll(/href="(?:\/es|\/pt)?\/listings\/us\/([a-z-]+)"><span>[^<]*<\/span><span[^>]*>(\d+)<\/span>/g)].map(
        (x) => `${x[1]}:${x[2]}`,
      );
      return { status: 200, body: { types, states } };
    }
    case 'states-page': {
      const mine = new Set(r.only);
      const listed = [...rootOf(body).matchAll(/href="\/listings\/us\/([a-z-]+)(?:\?type=[a-z-]+)?">[^<]*<\/a> <span[^>]*>\(<!-- -->([^<]*)<!-- -->\)/g)];
      const n = (text: string) => (text === 'no ads' ? '0' : (/^(\d+) ads?$/.exec(text)?.[1] ?? text));
      return { status: 200, body: listed.filter((x) => mine.has(x[1])).map((x) => `${x[1]}:${n(x[2])}`) };
    }
    case 'state-page': {
      const out: string[] = [];
      for (const c of rootOf(body).matchAll(/<h3[^>]*>[^<]*<!-- --> <span[^>]*>\(<!-- -->(\d+) [^<]*<!-- -->\)<\/span><\/h3><ul[^>]*>([\s\S]*?)<\/ul>/g)) {
        const links = [...c[2].matchAll(/href="\/listings\/us\/[a-z-]+\/([a-z0-9-]+)\/([a-z-]+)"[^>]*>[^<]*<!-- --> \(<!-- -->(\d+)<!-- -->\)/g)];
        out.push(`${links[0]?.[1] ?? '?'}:${c[1]}:${links.map((l) => `${codeOf(l[2])}=${l[3]}`).join(',')}`);
      }
      return { status: 200, body: out };
    }
    case 'list-page': {
      const ids: string[] = [];
      for (const mm of rootOf(body).matchAll(/href="\/ad\/([a-z0-9]+)"/g)) if (ids.at(-1) !== mm[1]) ids.push(mm[1]);
      return { status: 200, body: ids };
    }
  }
}

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';
const unescapeHtml = (s: string) =>
  s
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

// ---------------------------------------------------------------------------------------------
// The changes: each predicts its own answer from the model, then the system is asked

const opKinds = [
  'offline',
  'online',
  'online',
  'bump',
  'move',
  'edit',
  'approveEdit',
  'disable',
  'enable',
  'suspendOwner',
  'reinstateOwner',
  'closeCity',
  'openCity',
  'closeState',
  'openState',
  'minutes',
  'days',
  'expireJob',
  'renew',
  'delete',
  'post',
  'post',
  'approveNew',
  'approveNew',
  'rejectNew',
  'rejectEdit',
  'deleteAccount',
] as const;
const opArb = fc.record({
  kind: fc.constantFrom(...opKinds),
  ad: fc.nat(),
  to: fc.nat(),
  word: fc.nat(),
  amount: fc.integer({ min: 1, max: 20 }),
});
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * One scripted run with every kind of change in an order where each applies (run before the
 * random ones, a replayed seed included): the random runs need not reach every kind.
 */
const EVERY_CHANGE: [AdSpec[], Op[], number | null] = (() => {
  const op = (kind: Op['kind'], f: Partial<Op> = {}): Op => ({ kind, ad: 0, to: 0, word: 0, amount: 1, ...f });
  return [
    [
      { owner: 0, place: 0, type: 'female_esc', w1: 0, w2: 1 },
      { owner: 1, place: 1, type: 'female_rub', w1: 2, w2: 3 },
      { owner: 0, place: 2, type: 'female_esc', w1: 1, w2: 2 },
      { owner: 1, place: 0, type: 'female_esc', w1: 3, w2: 0 },
    ],
    [
      op('offline', { ad: 0 }),
      op('online', { ad: 0 }),
      op('minutes', { amount: 2 }),
      op('bump', { ad: 1 }),
      op('move', { ad: 2, to: 0 }),
      op('edit', { ad: 3, word: 5 }),
      op('approveEdit'),
      op('edit', { ad: 0, word: 6 }),
      op('move', { ad: 0, to: 1 }),
      op('rejectEdit'),
      op('disable', { ad: 1 }),
      op('enable', { ad: 1 }),
      op('suspendOwner', { to: 1 }),
      op('reinstateOwner', { to: 1 }),
      op('closeCity', { to: 2 }),
      op('openCity', { to: 2 }),
      op('closeState', { to: 0 }),
      op('openState', { to: 0 }),
      op('post', { to: 0, ad: 1, word: 5 }),
      op('approveNew'),
      op('post', { to: 1, ad: 2, word: 9 }),
      op('rejectNew'),
      op('days', { amount: 20 }),
      op('renew', { ad: 1 }),
      op('days', { amount: 15 }),
      op('expireJob'),
      op('renew', { ad: 2 }),
      // A held term: approved while its owner is suspended, past its nominal end, its city closed
      // when the owner comes back; it starts whole when the city opens.
      op('post', { to: 0, ad: 0, word: 3 }),
      op('suspendOwner', { to: 0 }),
      op('approveNew'),
      op('days', { amount: 20 }),
      op('days', { amount: 15 }),
      op('expireJob'),
      op('closeCity', { to: 0 }),
      op('reinstateOwner', { to: 0 }),
      op('openCity', { to: 0 }),
      op('delete', { ad: 3 }),
      op('deleteAccount', { to: 1 }),
    ],
    null,
  ];
})();

/**
 * The caches' memory: the default, or 20 kB shared out (a few kB and 16 entries a cache), so that
 * answers, pages, values and search lists are pushed out and computed again all the time.
 */
const cacheArb = fc.constantFrom<number | null>(null, 0.02);

const adSpecArb = fc.record({ owner: fc.nat(1), place: fc.nat(2), type: fc.constantFrom(...TYPES), w1: fc.nat(3), w2: fc.nat(3) });
type AdSpec = typeof adSpecArb extends fc.Arbitrary<infer T> ? T : never;

const titleOf = (w1: number, w2: number, n: number) => `${cap(WORDS[w1])} and ${WORDS[w2]} evenings, number ${n}`;
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);

class World {
  readonly m: Model;
  readonly ctx: TestContext;
  readonly places: PlaceInfo[];
  readonly owners: TestUser[];
  readonly wallets: string[];
  private staff: TestUser;
  private titles = 0;
  constructor(w: { ctx: TestContext; places: PlaceInfo[]; owners: TestUser[]; wallets: string[]; staff: TestUser; termMs: number }) {
    this.ctx = w.ctx;
    this.places = w.places;
    this.owners = w.owners;
    this.wallets = w.wallets;
    this.staff = w.staff;
    this.m = {
      ads: [],
      ownersApproved: w.owners.map(() => true),
      ownersGone: w.owners.map(() => false),
      cityEnabled: w.places.map(() => true),
      stateEnabled: new Map(w.places.map((p) => [p.stateId, true])),
      nextSeq: 0,
      termMs: w.termMs,
    };
  }

  now(): number {
    return this.ctx.clock.now().getTime();
  }

  async post(spec: AdSpec): Promise<void> {
    const title = titleOf(spec.w1, spec.w2, ++this.titles);
    const ad = await liveAd(this.ctx, this.owners[spec.owner], this.staff, this.places[spec.place], { title, listingType: spec.type });
    this.approved(this.submitted({ id: ad.id, owner: spec.owner, place: spec.place, type: spec.type, title }), this.now());
  }

  /** A new ad in the model, submitted and paid: waiting for staff, never public yet. */
  private submitted(ad: Pick<MAd, 'id' | 'owner' | 'place' | 'type' | 'title'>): MAd {
    const a: MAd = {
      ...ad,
      pending: null,
      status: 'pending',
      published: false,
      online: true,
      deleted: false,
      seq: 0,
      expiresAt: 0,
      publishedAt: 0,
      held: false,
      lastBump: 0,
      lastRenew: null,
    };
    this.m.ads.push(a);
    return a;
  }

  /** Staff approved a new ad: public from now, newest in its lists, for one term (held while its owner is not approved). */
  private approved(a: MAd, now: number): void {
    a.status = 'approved';
    a.published = true;
    a.seq = ++this.m.nextSeq;
    a.expiresAt = now + this.m.termMs;
    a.publishedAt = now;
    a.held = !this.m.ownersApproved[a.owner];
    a.lastBump = now;
  }

  /**
   * The held terms among these ads start where their owner is approved and their place open: each
   * whole from now, at the top of its lists (in the order they had), a disabled one staying disabled.
   */
  private startHeld(ads: MAd[], now: number, statuses: readonly MAd['status'][] = ['approved', 'expired', 'disabled']): void {
    const due = ads.filter((x) => x.held && !x.deleted && statuses.includes(x.status) && this.m.ownersApproved[x.owner] && this.placeOpen(x.place));
    for (const x of due.sort((p, q) => p.seq - q.seq)) {
      x.expiresAt = now + (x.expiresAt - x.publishedAt);
      x.publishedAt = now;
      x.lastBump = now;
      x.seq = ++this.m.nextSeq;
      x.held = false;
      if (x.status !== 'disabled') x.status = 'approved';
    }
  }

  /** Its city and its state are both enabled. */
  private placeOpen(i: number): boolean {
    return this.m.cityEnabled[i] && this.m.stateEnabled.get(this.places[i].stateId) === true;
  }

  private async signIn(u: TestUser): Promise<TestUser> {
    const res = await this.ctx.app.inject({ method: 'POST', url: '/api/login', payload: { email: u.email, password: u.password } });
    expect(res.statusCode, res.body).toBe(200);
    return { ...u, cookie: cookieOf(res) };
  }

  private inject(user: TestUser, method: 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown) {
    return this.ctx.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload === undefined ? {} : { payload: payload as never }) });
  }

  /** Runs one change: returns its label, or null when it does not apply to this world (no live ad to act on…). */
  async apply(op: Op): Promise<string | null> {
    const m = this.m;
    const ads = m.ads.filter((a) => !a.deleted);
    // The owners' and staff's changes of a live ad act on published ones; new ads have their own.
    const published = ads.filter((x) => x.published);
    const a = published.length ? published[op.ad % published.length] : undefined;
    const ownerOk = a !== undefined && m.ownersApproved[a.owner];
    const owner = a && this.owners[a.owner];
    const now = this.now();
    const check = async (label: string, res: { statusCode: number; body: string }, status: number, after?: () => void) => {
      expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
      if (res.statusCode === 200) after?.();
      return label;
    };
    switch (op.kind) {
      case 'offline':
      case 'online': {
        if (!a || !ownerOk) return null;
        const online = op.kind === 'online';
        return check(
          `${a.id} ${op.kind}`,
          await this.inject(owner!, 'PUT', `/api/update-ad-online-status/${a.id}`, { online }),
          200,
          () => (a.online = online),
        );
      }
      case 'bump': {
        if (!a || !ownerOk) return null;
        // A bump is for an ad that shows (approved, running, online, its owner and place not suspended).
        const ok = isPublic(m, this.places, a, now) && now - a.lastBump >= BUMP_COOLDOWN_MS;
        return check(`${a.id} bump`, await this.inject(owner!, 'PUT', `/api/bump-ad/${a.id}`, { walletId: this.wallets[a.owner] }), ok ? 200 : 409, () => {
          a.seq = ++m.nextSeq;
          a.lastBump = now;
        });
      }
      case 'move': {
        if (!a || !ownerOk) return null;
        const to = op.to % this.places.length;
        const p = this.places[to];
        // Not a disabled or rejected one; an expired one may move (to be renewed where its place is open).
        const movable = a.status !== 'disabled' && a.status !== 'rejected';
        const ok = movable && m.cityEnabled[to] && m.stateEnabled.get(p.stateId) === true;
        const res = await this.inject(owner!, 'PUT', `/api/update-ad-location/${a.id}`, { stateId: p.stateId, cityId: p.cityId });
        // Moving into a closed place is refused (which code is the place rules' business, not this test's).
        if (!ok && m.cityEnabled[to] && m.stateEnabled.get(p.stateId) === true) return check(`${a.id} move to ${p.citySlug}`, res, 409);
        if (!ok) {
          expect(res.statusCode, `${a.id} move to closed ${p.citySlug}: ${res.body}`).toBeGreaterThanOrEqual(400);
          return `${a.id} move to closed ${p.citySlug} (refused)`;
        }
        return check(`${a.id} move to ${p.citySlug}`, res, 200, () => {
          a.place = to;
          if (a.pending) a.pending.place = to; // a pending edit follows the ad
          this.startHeld([a], now);
        });
      }
      case 'edit': {
        if (!a || !ownerOk || a.status === 'disabled') return null;
        const p = this.places[a.place];
        if (!m.cityEnabled[a.place] || m.stateEnabled.get(p.stateId) !== true) return null;
        const title = titleOf(op.word % WORDS.length, (op.word >> 2) % WORDS.length, ++this.titles);
        const detail = await this.ctx.app.inject({ method: 'GET', url: `/api/ads/${a.id}`, headers: { cookie: owner!.cookie } });
        expect(detail.statusCode, detail.body).toBe(200);
        const keep = JSON.stringify((detail.json().ad.photos as { url: string }[]).map((x) => x.url));
        const res = await this.ctx.app.inject({
          method: 'PUT',
          url: `/api/ads/${a.id}`,
          headers: { cookie: owner!.cookie },
          payload: adForm({ ...goodFields(p, { title, listingType: a.type }), keepPhotos: keep }, []),
        });
        return check(`${a.id} edit "${title}" (to review)`, res, 200, () => {
          const rev = res.json().ad.revision as { id: string } | null;
          expect(rev, res.body).not.toBeNull();
          a.pending = { id: rev!.id, title, place: a.place };
        });
      }
      case 'approveEdit': {
        const withEdit = ads.filter((x) => x.pending);
        if (!withEdit.length) return null;
        const e = withEdit[op.ad % withEdit.length];
        const res = await this.inject(this.staff, 'POST', '/api/admin/approve-pending-ads', { adIds: [e.pending!.id], decision: 'approve' });
        // An edit into a place closed since it was made is left pending (it would take the live ad off the site).
        if (!this.placeOpen(e.pending!.place)) {
          return check(`${e.id} edit left pending (its place closed)`, res, 200, () => expect(res.json()).toEqual({ updated: 0 }));
        }
        return check(`${e.id} edit approved "${e.pending!.title}"`, res, 200, () => {
          expect(res.json()).toEqual({ updated: 1 });
          e.title = e.pending!.title;
          e.place = e.pending!.place;
          e.pending = null;
        });
      }
      case 'disable':
      case 'enable': {
        if (!a) return null;
        const res = await this.inject(this.staff, 'POST', '/api/admin/set-status-approved-ads', {
          adIds: [a.id],
          status: op.kind === 'disable' ? 'disabled' : 'approved',
        });
        let updated = 0;
        // An expired ad is disabled too: its owner must not renew a taken-down ad back into view (9b4428e).
        if (op.kind === 'disable' && (a.status === 'approved' || a.status === 'expired')) updated = 1;
        if (op.kind === 'enable' && a.status === 'disabled') updated = 1;
        return check(`${a.id} ${op.kind} by staff`, res, 200, () => {
          expect(res.json(), `${a.id} ${op.kind}`).toEqual({ updated });
          // A held term cannot have run out: enabled, its ad is approved (and waits as before).
          if (updated) a.status = op.kind === 'disable' ? 'disabled' : a.expiresAt <= now && !a.held ? 'expired' : 'approved';
        });
      }
      case 'suspendOwner':
      case 'reinstateOwner': {
        const i = op.to % this.owners.length;
        if (m.ownersGone[i]) return null;
        const status = op.kind === 'suspendOwner' ? 'suspended' : 'approved';
        const res = await this.inject(this.staff, 'POST', '/api/master/update-user-status', { userId: this.owners[i].id, status });
        await check(`owner ${i} ${status}`, res, 200, () => {
          m.ownersApproved[i] = status === 'approved';
          if (status === 'approved')
            this.startHeld(
              ads.filter((x) => x.owner === i),
              now,
            );
        });
        if (status === 'approved') this.owners[i] = await this.signIn(this.owners[i]); // a suspension ended their sessions
        return `owner ${i} ${status}`;
      }
      case 'closeCity':
      case 'openCity': {
        const i = op.to % this.places.length;
        const p = this.places[i];
        const enabled = op.kind === 'openCity';
        const res = await this.inject(this.staff, 'POST', '/api/admin/set-status-state-cities', { stateId: p.stateId, cityIds: [p.cityId], enabled });
        return check(`${p.citySlug} ${enabled ? 'opened' : 'closed'}`, res, 200, () => {
          m.cityEnabled[i] = enabled;
          if (enabled)
            this.startHeld(
              ads.filter((x) => x.place === i),
              now,
              ['approved', 'disabled'],
            );
        });
      }
      case 'closeState':
      case 'openState': {
        const p = this.places[op.to % this.places.length];
        const enabled = op.kind === 'openState';
        const res = await this.inject(this.staff, 'POST', '/api/admin/set-status-state-cities', { stateId: p.stateId, enabled });
        return check(`${p.stateSlug} ${enabled ? 'opened' : 'closed'}`, res, 200, () => {
          m.stateEnabled.set(p.stateId, enabled);
          if (enabled)
            this.startHeld(
              ads.filter((x) => this.places[x.place].stateId === p.stateId),
              now,
              ['approved', 'disabled'],
            );
        });
      }
      case 'minutes':
        this.ctx.clock.advance(op.amount * 61_000);
        return `${op.amount * 61} s pass`;
      case 'days': {
        // Up to 20 days: a 30-day term runs out in two or three of these, and sessions too.
        this.ctx.clock.advance(op.amount * DAY_MS);
        this.staff = await this.signIn(this.staff);
        for (const [i, o] of this.owners.entries()) if (m.ownersApproved[i]) this.owners[i] = await this.signIn(o);
        return `${op.amount} days pass`;
      }
      case 'expireJob': {
        const job = findJob('expire-ads')!;
        await runJob(this.ctx.app.deps, job);
        for (const x of m.ads) if (!x.deleted && !x.held && x.status === 'approved' && x.expiresAt <= now) x.status = 'expired';
        return 'expire-ads runs';
      }
      case 'renew': {
        if (!a || !ownerOk) return null;
        const ok = (a.status === 'approved' || a.status === 'expired') && (a.lastRenew === null || now - a.lastRenew >= RENEW_COOLDOWN_MS);
        // A term is not sold where the ad would show nowhere: its city or state disabled is 400.
        const placeOk = m.cityEnabled[a.place] && m.stateEnabled.get(this.places[a.place].stateId) === true;
        const res = await this.inject(owner!, 'PUT', `/api/renew-ad/${a.id}`, { walletId: this.wallets[a.owner] });
        return check(`${a.id} renew`, res, !ok ? 409 : placeOk ? 200 : 400, () => {
          a.expiresAt = Math.max(now, a.expiresAt) + m.termMs;
          a.status = 'approved';
          a.lastRenew = now;
          expect(Date.parse(res.json().ad.expiresAt), `${a.id} renewed`).toBe(a.expiresAt);
        });
      }
      case 'delete': {
        // Any ad of theirs, published or not (one never published answers 404 once deleted, not 410).
        const d = ads.length ? ads[op.ad % ads.length] : undefined;
        if (!d || !m.ownersApproved[d.owner] || ads.length <= 2) return null;
        return check(`${d.id} deleted`, await this.inject(this.owners[d.owner], 'DELETE', `/api/ads/${d.id}`), 200, () => {
          d.deleted = true;
          d.pending = null;
        });
      }
      case 'deleteAccount': {
        // An owner deletes their account: every ad of theirs goes at once (410 where published).
        const i = op.to % this.owners.length;
        const theirs = ads.filter((x) => x.owner === i);
        if (!m.ownersApproved[i] || ads.length - theirs.length < 2) return null;
        const u = this.owners[i];
        const res = await this.ctx.app.inject({
          method: 'DELETE',
          url: '/api/delete-my-profile?confirm=true',
          headers: { cookie: u.cookie },
          payload: { password: u.password },
        });
        return check(`owner ${i} deletes their account (${theirs.length} ads)`, res, 200, () => {
          m.ownersApproved[i] = false;
          m.ownersGone[i] = true;
          for (const x of theirs) {
            x.deleted = true;
            x.pending = null;
          }
        });
      }
      case 'post': {
        // A new ad submitted and paid for: in staff's queue, public nowhere until approved.
        const o = op.to % this.owners.length;
        const place = op.ad % this.places.length;
        const p = this.places[place];
        if (!m.ownersApproved[o] || !m.cityEnabled[place] || m.stateEnabled.get(p.stateId) !== true) return null;
        const type = TYPES[op.word % TYPES.length];
        const title = titleOf(op.word % WORDS.length, (op.word >> 2) % WORDS.length, ++this.titles);
        const ad = await postAd(this.ctx, this.owners[o], p, { title, listingType: type });
        expect((await pay(this.ctx, this.owners[o], ad.id, this.wallets[o])).statusCode).toBe(200);
        this.submitted({ id: ad.id, owner: o, place, type, title });
        return `${ad.id} "${title}" ${type} in ${p.citySlug} submitted and paid (to review)`;
      }
      case 'approveNew':
      case 'rejectNew': {
        const waiting = ads.filter((x) => x.status === 'pending');
        if (!waiting.length) return null;
        const n = waiting[op.ad % waiting.length];
        const approve = op.kind === 'approveNew';
        const res = await decide(this.ctx, this.staff, [n.id], approve ? 'approve' : 'reject', approve ? undefined : 'The photos do not match the text.');
        // An ad whose city or state closed since it was posted stays in review (its term would run where it shows nowhere).
        if (approve && !this.placeOpen(n.place)) {
          return check(`${n.id} left in review (its place closed)`, res, 200, () => expect(res.json()).toEqual({ updated: 0 }));
        }
        return check(`${n.id} ${approve ? 'approved' : 'rejected'} by staff`, res, 200, () => {
          expect(res.json()).toEqual({ updated: 1 });
          if (!approve) return void (n.status = 'rejected');
          this.approved(n, now);
        });
      }
      case 'rejectEdit': {
        const withEdit = ads.filter((x) => x.pending);
        if (!withEdit.length) return null;
        const e = withEdit[op.ad % withEdit.length];
        const res = await decide(this.ctx, this.staff, [e.pending!.id], 'reject', 'The new title is not allowed.');
        return check(`${e.id} edit rejected "${e.pending!.title}"`, res, 200, () => {
          expect(res.json()).toEqual({ updated: 1 });
          e.pending = null;
        });
      }
    }
  }

  /** Every read, predicted and asked (each twice: the second is the cache's answer). */
  async compare(history: string[]): Promise<void> {
    const now = this.now();
    const all: (Asked & { expected: Expected })[] = [];
    // First the owners' previews: an owner sees their ad whatever its state (the live version),
    // and what they see must never be kept for the guests asked next.
    for (const a of this.m.ads) {
      if (a.deleted || !this.m.ownersApproved[a.owner]) continue;
      all.push({
        url: `/api/ads/${a.id}`,
        kind: 'ad',
        cookie: this.owners[a.owner].cookie,
        expected: { status: 200, body: { title: a.title, city: this.places[a.place].citySlug } },
      });
    }
    for (const r of reads(this.places, this.m)) all.push({ url: r.url, kind: r.kind, expected: r.expect(now), only: r.only });
    for (const a of this.m.ads) {
      const expected = adStatus(this.m, this.places, a, now);
      all.push(
        { url: `/api/ads/${a.id}`, kind: 'ad', expected },
        { url: `/ad/${a.id}`, kind: 'ad-page', expected },
        { url: `/es/ad/${a.id}`, kind: 'ad-page', expected },
      );
    }
    // The sitemap lists exactly the pages that answer 200 and may be indexed: each state and city
    // page with ads, and every public ad (its state's file, oldest bump first), each in three languages.
    const pub = newestFirst(this.m.ads.filter((a) => isPublic(this.m, this.places, a, now))).reverse();
    const expectedMap = {
      states: [...new Set(pub.map((a) => this.places[a.place].stateSlug))].sort(),
      cities: [...new Set(pub.map((a) => `${this.places[a.place].stateSlug}/${this.places[a.place].citySlug}/${slugOf(a.type)}`))].sort(),
      ads: [...new Set(this.places.map((p) => p.stateSlug))].sort().map(
        (slug) =>
          `${slug}: ${pub
            .filter((a) => this.places[a.place].stateSlug === slug)
            .map((a) => a.id)
            .join(' ')}`,
      ),
    };
    const { files } = await walkSitemap(this.ctx);
    const english = (f: { locs: string[] }) => f.locs.map((l) => new URL(l).pathname).filter((p) => !/^\/(es|pt)(\/|$)/.test(p));
    const pagePaths = files.filter((f) => /\/pages-\d+\.xml$/.test(f.url)).flatMap(english);
    const gotMap = {
      states: pagePaths
        .filter((p) => /^\/listings\/us\/[^/]+$/.test(p))
        .map((p) => p.slice('/listings/us/'.length))
        .sort(),
      cities: pagePaths
        .filter((p) => p.split('/').length === 6 && p.startsWith('/listings/us/'))
        .map((p) => p.slice('/listings/us/'.length))
        .sort(),
      ads: [...new Set(this.places.map((p) => p.stateSlug))].sort().map(
        (slug) =>
          `${slug}: ${files
            .filter((f) => new RegExp(`/ads-${slug}-\\d+\\.xml$`).test(f.url))
            .flatMap(english)
            .map((p) => p.slice('/ad/'.length))
            .join(' ')}`,
      ),
    };
    if (JSON.stringify(gotMap) !== JSON.stringify(expectedMap)) {
      throw new Error(`wrong sitemap:\n  expected ${JSON.stringify(expectedMap)}\n  got      ${JSON.stringify(gotMap)}\nafter:\n  ${history.join('\n  ')}`);
    }
    for (const round of [1, 2]) {
      for (const r of all) {
        const got = await ask(this.ctx, r);
        if (JSON.stringify(got) !== JSON.stringify(r.expected)) {
          throw new Error(
            `stale or wrong answer (read ${round} of 2) to GET ${r.url}${r.cookie ? " (the ad's owner)" : ''}:\n  expected ${JSON.stringify(r.expected)}\n  got      ${JSON.stringify(got)}\nafter:\n  ${history.join('\n  ')}`,
          );
        }
      }
    }
  }
}

let dist: string;
beforeAll(() => {
  dist = clientBuild();
}, 180_000);

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('public reads property: cached answers always match the model', () => {
  it('after every change, every list, search, count, ad and page is what the model predicts', { timeout: RUNS * 40_000 + 60_000 }, async () => {
    const seen = new Map<string, number>(); // which changes ran (and were not skipped), to show the runs reach them
    await fc.assert(
      fc.asyncProperty(
        fc.array(adSpecArb, { minLength: 4, maxLength: 6 }),
        fc.array(opArb, { minLength: 15, maxLength: 30 }),
        cacheArb,
        async (specs, ops, cacheMb) => {
          await ctx?.close();
          ctx = await createTestApp({
            distDir: dist,
            env: { PUBLIC_URL: 'https://xg.example' },
            limits: { sitemapPerMinute: 1_000_000 },
            cacheMb: cacheMb ?? undefined,
          });
          const places: PlaceInfo[] = [];
          for (const [state, nth] of [
            ['ny', 0],
            ['ny', 1],
            ['tx', 0],
          ] as const) {
            const p = await placeIn(ctx, state, nth);
            const names = await ctx.app.deps.db
              .selectFrom('cities')
              .innerJoin('states', 'states.id', 'cities.state_id')
              .select(['cities.name as cityName', 'states.name as stateName'])
              .where('cities.id', '=', p.cityId)
              .executeTakeFirstOrThrow();
            places.push({ ...p, ...names });
          }
          const owners = [await makeUser(ctx, { status: 'approved' }), await makeUser(ctx, { status: 'approved' })];
          const wallets = [await fundedUsd(ctx, owners[0], 1_000_000), await fundedUsd(ctx, owners[1], 1_000_000)];
          const staff = await asMaster(ctx);
          // The term an ad is paid for, from the ad price's duration as the pricing route tells it.
          const pricing = (await ctx.app.inject({ method: 'GET', url: '/api/get-ad-pricing' })).json() as {
            pricing: { listingType: string; durationDays: number }[];
          };
          const terms = new Set(pricing.pricing.filter((p) => (TYPES as readonly string[]).includes(p.listingType)).map((p) => p.durationDays));
          expect(terms.size, JSON.stringify(pricing)).toBe(1); // one term for both types: the model keeps one
          const term = [...terms][0];
          const w = new World({ ctx, places, owners, wallets, staff, termMs: term * DAY_MS });
          for (const s of specs) await w.post(s);
          const history = [
            `${specs.length} ads posted and approved${cacheMb === null ? '' : ` (caches of ${cacheMb * 1000} kB)`}: ${w.m.ads.map((a) => `${a.id} "${a.title}" ${a.type} in ${places[a.place].citySlug}`).join('; ')}`,
          ];
          await w.compare(history);
          for (const op of ops) {
            const label = await w.apply(op);
            if (label === null) continue;
            history.push(label);
            seen.set(op.kind, (seen.get(op.kind) ?? 0) + 1);
            await w.compare(history);
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: [EVERY_CHANGE] },
    );
    // Every kind of change ran at least once (the scripted sequence has each; random runs may not).
    for (const kind of opKinds) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });
});
