import { ENVELOPE_TWISTS, buildMultipart, badFiles, type Part } from './multipart.ts';
import { memo, type Mutator } from './draft.ts';
import * as V from './values.ts';

// Mutators of the upload forms (post-ad, avatar-update): the envelope (boundary, truncation, line
// endings), the file (not an image, image bombs, truncated), the part headers, which parts there
// are (none, too many, renamed), and the ad's text fields.

const AD_FIELDS = ['listingType', 'title', 'description', 'age', 'stateId', 'cityId', 'phone'];

export const multipartMutator: Mutator = (t, seed, d, rng) => {
  const form = seed.form ?? [];
  const fileField = t.form === 'avatar' ? 'avatar' : 'photos';
  const parts = (): Part[] => form.map((p) => ({ ...p }));
  const set = (ps: Part[], opts: Parameters<typeof buildMultipart>[1] = {}) => {
    const built = buildMultipart(ps, opts);
    d.body = built.payload;
    d.contentType = built.contentType;
    return built;
  };
  const branch = rng.weighted([
    [20, 'envelope'],
    [25, 'file'],
    [15, 'part'],
    [12, 'parts'],
    [t.form === 'ad' ? 28 : 0, 'field'],
    [0.5, 'over-limit'],
  ] as const);
  if (branch === 'envelope') {
    const [label, twist] = rng.pick(ENVELOPE_TWISTS);
    const out = twist({ built: buildMultipart(parts()), parts, fileField, rng });
    d.body = out.body;
    d.contentType = out.contentType;
    return `envelope:${label}`;
  }
  if (branch === 'file') {
    const [label, data, ct] = rng.pick(memo('bad-files', () => badFiles(seed.images)));
    set(parts().map((p) => (p.filename !== undefined ? { ...p, data, contentType: ct } : p)));
    return `file:${label}`;
  }
  if (branch === 'part') {
    // Part headers.
    const twists: [string, (ps: Part[]) => Part[]][] = [
      ['file-no-disposition', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, disposition: null } : p))],
      ['field-no-disposition', (ps) => ps.map((p, i) => (i === 0 ? { ...p, disposition: null } : p))],
      [
        'disposition-no-name',
        (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, disposition: 'Content-Disposition: form-data; filename="a.jpg"' } : p)),
      ],
      [
        'disposition-attachment',
        (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, disposition: `Content-Disposition: attachment; name="${fileField}"; filename="a.jpg"` } : p)),
      ],
      ['disposition-garbage', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, disposition: 'Content-Disposition: ;;;=="' } : p))],
      ['name-empty', (ps) => ps.map((p) => ({ ...p, name: '' }))],
      ['name-huge', (ps) => ps.map((p, i) => (i === 0 ? { ...p, name: 'n'.repeat(100_000) } : p))],
      ['name-proto', (ps) => [...ps, { name: '__proto__', data: '{"polluted":true}' }, { name: 'constructor', data: 'x' }]],
      ['name-unicode', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, name: `${fileField}😀` } : p))],
      ['filename-traversal', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, filename: '../../../../etc/passwd' } : p))],
      ['filename-nul', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, filename: 'a.jpg\u0000.exe' } : p))],
      ['filename-huge', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, filename: `${'f'.repeat(50_000)}.jpg` } : p))],
      ['filename-empty', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, filename: '' } : p))],
      [
        'filename-star',
        (ps) =>
          ps.map((p) =>
            p.filename !== undefined ? { ...p, disposition: `Content-Disposition: form-data; name="${fileField}"; filename*=UTF-8''%E2%80%AEgpj.exe` } : p,
          ),
      ],
      [
        'transfer-encoding-base64',
        (ps) =>
          ps.map((p) =>
            p.filename !== undefined
              ? { ...p, headers: ['Content-Transfer-Encoding: base64'], data: Buffer.isBuffer(p.data) ? p.data.toString('base64') : p.data }
              : p,
          ),
      ],
      ['huge-part-header', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, headers: [`X-Junk: ${'j'.repeat(100_000)}`] } : p))],
      ['many-part-headers', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, headers: Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`) } : p))],
      ['content-type-garbage', (ps) => ps.map((p) => (p.filename !== undefined ? { ...p, contentType: ';;;/😀' } : p))],
    ];
    const [label, fn] = rng.pick(twists);
    set(fn(parts()));
    return `part:${label}`;
  }
  if (branch === 'parts') {
    // Which parts there are.
    const fileParts = parts().filter((p) => p.filename !== undefined);
    const fieldParts = parts().filter((p) => p.filename === undefined);
    const tiny = (i: number): Part => ({ name: fileField, filename: `t${i}.png`, contentType: 'image/png', data: Buffer.from([i & 0xff]) });
    const twists: [string, () => Part[]][] = [
      ['no-file', () => fieldParts],
      ['file-renamed', () => [...fieldParts, ...fileParts.map((p) => ({ ...p, name: t.form === 'avatar' ? 'file' : 'photo' }))]],
      ['file-as-field', () => [...fieldParts, ...fileParts.map((p) => ({ name: p.name, data: p.data }))]],
      ['fields-as-files', () => [...fieldParts.map((p) => ({ ...p, filename: `${p.name}.txt`, contentType: 'text/plain' })), ...fileParts]],
      ['two-files', () => [...fieldParts, ...fileParts, ...fileParts]],
      ['11-files', () => [...fieldParts, ...Array.from({ length: 11 }, () => fileParts[0] ?? tiny(0))]],
      ['50-tiny-files', () => [...fieldParts, ...Array.from({ length: 50 }, (_, i) => tiny(i))]],
      ['31-fields', () => [...Array.from({ length: 31 }, (_, i) => ({ name: `f${i}`, data: 'x' })), ...fieldParts, ...fileParts]],
      ['61-parts', () => [...Array.from({ length: 61 }, (_, i) => ({ name: `p${i}`, data: '' })), ...fieldParts, ...fileParts]],
      ['1000-tiny-parts', () => [...Array.from({ length: 1000 }, (_, i) => ({ name: `p${i}`, data: 'y' })), ...fieldParts, ...fileParts]],
      ['file-first', () => [...fileParts, ...fieldParts]],
      ['duplicate-fields', () => [...fieldParts, ...fieldParts.map((p) => ({ ...p, data: 'dup' })), ...fileParts]],
      ['empty-form', () => []],
      ['photos[]-name', () => [...fieldParts, ...fileParts.map((p) => ({ ...p, name: `${fileField}[]` }))]],
    ];
    const [label, fn] = rng.pick(twists);
    set(fn());
    return `parts:${label}`;
  }
  if (branch === 'field') {
    // The ad's text fields.
    const name = rng.pick(AD_FIELDS);
    const roll = rng.next();
    let label: string;
    let ps: Part[];
    if (roll < 0.15) {
      ps = parts().filter((p) => p.name !== name);
      label = `without ${name}`;
    } else if (roll < 0.25) {
      // Wording the screening refuses, disguised: the one refusal that writes (screening_log).
      const field = rng.pick(['title', 'description']);
      const [l, v] = rng.pick<V.Labeled<string>>([
        ['plain', 'Sweet teen companion'],
        ['cyrillic', 'Sweet tееn companion'],
        ['leet', 'Sweet t33n companion downtown'],
        ['zero-width', 'Sweet te\u200ben companion'],
        ['age-number', 'Sweet and fun, 19 yo, downtown'],
        ['spaced', 'Barely   legal and discreet'],
      ]);
      ps = parts().map((p) =>
        p.name === field && p.filename === undefined
          ? { ...p, data: field === 'description' ? `${v}. Friendly, discreet and punctual, by appointment only.` : v }
          : p,
      );
      label = `${field}=screened:${l}`;
    } else {
      const pool: V.Labeled<string>[] = [
        ...V.BAD_STRINGS,
        ...V.QUERY_VALUES.map(([l, v]) => [`num:${l}`, decodeURIComponentSafe(v)] as const),
        ['age-20', '20'],
        ['age-46', '46'],
        ['age-over45', 'over 45'],
        ['age-OVER45', 'OVER45'],
        ['phone-intl', '+44 20 7946 0958'],
        ['phone-letters', '1-800-FLOWERS'],
        ['type-upper', 'FEMALE_ESC'],
        ['other-state-city', 'ca'],
        ['field-70k', 'z'.repeat(70_000)],
        ['title-screened', 'young teen schoolgirl'],
      ];
      const [l, v] = rng.pick(pool);
      ps = parts().map((p) => (p.name === name && p.filename === undefined ? { ...p, data: v } : p));
      label = `${name}=${l}`;
    }
    set(ps);
    return `field:${label}`;
  }
  // Rare and heavy: a file over the 10 MB limit.
  const big = memo('over-10mb', () => Buffer.alloc(10 * 1024 * 1024 + 1, 0x41));
  set(parts().map((p) => (p.filename !== undefined ? { ...p, data: big } : p)));
  return 'file:over-10MB';
};

function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
