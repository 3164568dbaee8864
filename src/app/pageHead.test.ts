import { describe, expect, it } from 'vitest';
import { excerpt } from './pageHead';

describe('excerpt', () => {
  it('keeps a short text whole, on one line', () => {
    expect(excerpt('  Tall brunette,\n downtown  ')).toBe('Tall brunette, downtown');
  });

  it('cuts at a word in the second half', () => {
    const text = `${'word '.repeat(40)}end`;
    const out = excerpt(text, 30);
    expect(out).toBe(`${'word '.repeat(5).trimEnd()}…`);
  });

  // Characters as people see them: an emoji (two UTF-16 units), a flag or a family (several code
  // points joined) is never split, so no half of one becomes "�" in a page's head.
  it('never splits an emoji, a flag or a joined sequence', () => {
    for (const unit of ['💋', '🏳️‍⚧️', '👩‍👩‍👧', '🇧🇷']) {
      const out = excerpt(`Hi ${unit.repeat(200)}`, 160);
      expect(out.endsWith('…')).toBe(true);
      const body = out.slice(3, -1);
      expect(body.length % unit.length, unit).toBe(0);
      expect(body).toBe(unit.repeat(body.length / unit.length));
      expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/); // no lone surrogate
    }
  });

  // A grapheme may be a letter with dozens of combining marks (or a long joined emoji): 160 of them
  // were 4,000 characters in the head. At most twice the count in UTF-16 units, still never split.
  it('stays short in UTF-16 units too, cut between graphemes', () => {
    const zalgo = `e${'\u0301\u0302\u0303\u0304\u0305'.repeat(5)}`; // one grapheme, 26 units
    const out = excerpt(`Hi ${zalgo.repeat(200)}`, 160);
    expect(out.length).toBeLessThanOrEqual(320);
    expect(out.endsWith('…')).toBe(true);
    const body = out.slice(3, -1);
    expect(body).toBe(zalgo.repeat(body.length / zalgo.length));
    const short = `Ok ${zalgo.repeat(8)}`; // 211 units in 11 graphemes, within both: whole
    expect(excerpt(short, 160)).toBe(short);
  });
});
