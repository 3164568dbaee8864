import { PUBLIC, STAFF, type MatrixRow, type PolicyLink, type RequestSpec, type RowContext } from './vocabulary.ts';

/** The account a hold or an export about the request's ad concerns: the ad's owner. */
const ownerOfAd = (id: string) => (c: RowContext) => {
  const ad = c.objects.ad(id);
  return ad && { userId: ad.ownerId };
};
const aboutBodyAd = (action: 'hold' | 'release'): PolicyLink => [
  'moderation',
  action,
  (c, r: RequestSpec) => ownerOfAd((r.payload as { targetId: string }).targetId)(c),
];

export const rows: MatrixRow[] = [
  {
    route: 'GET /api/admin/search-ads',
    expect: STAFF,
    allowed: 200,
    policy: ['moderation', 'search'],
    request: () => ({ url: '/api/admin/search-ads?query=%28212%29%20555-0142' }),
  },
  {
    route: 'GET /api/admin/get-user/:id',
    expect: STAFF,
    allowed: 200,
    policy: ['moderation', 'viewUser', (c) => ({ userId: c.world.applicantId })],
    request: (c) => ({ url: `/api/admin/get-user/${c.world.applicantId}` }),
  },
  {
    route: 'POST /api/admin/place-legal-hold',
    expect: STAFF,
    allowed: 201,
    policy: aboutBodyAd('hold'),
    request: (c) => ({ payload: { targetType: 'ad', targetId: c.id('provider.liveAd'), reason: 'Matrix preservation request' } }),
  },
  {
    route: 'POST /api/admin/release-legal-hold',
    expect: STAFF,
    policy: aboutBodyAd('release'),
    // The matrix cannot read the ids of the holds the row above places: it names one that is not
    // among them, which staff get past authorization to be refused (409 moderation.hold_changed).
    request: (c) => ({ payload: { targetType: 'ad', targetId: c.id('provider.liveAd'), holdIds: ['matrixhold'], note: 'Matrix release note' } }),
    note: '409: the hold named is not one in force on the ad (releases are tested in moderation.holds.test.ts)',
  },
  { route: 'GET /api/admin/get-legal-holds', expect: STAFF, allowed: 200, policy: ['moderation', 'search'] },
  {
    route: 'GET /api/admin/get-duplicate-flags',
    expect: STAFF,
    allowed: 200,
    policy: ['moderation', 'search'],
    request: (c) => ({ url: `/api/admin/get-duplicate-flags?adIds=${c.id('provider.liveAd')},${c.id('otherProvider.liveAd')}` }),
  },
  {
    route: 'GET /api/admin/export-evidence/:id',
    expect: STAFF,
    allowed: 200,
    policy: ['moderation', 'export', (c) => ownerOfAd(c.id('provider.reviewAd'))(c)],
    request: (c) => ({ url: `/api/admin/export-evidence/${c.id('provider.reviewAd')}` }),
  },
  { route: 'GET /api/transparency', expect: PUBLIC, allowed: 200 },
];
