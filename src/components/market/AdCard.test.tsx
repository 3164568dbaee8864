import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderAt } from '../../test/render';
import { AdGrid } from './AdCard';
import { makeCard } from './testing';

describe('an ad’s card', () => {
  // A card's title is its ad's own text, written in any language: in Hebrew or Arabic (right to
  // left) inside the site's left-to-right page it would read in the wrong order ("200$ לשעה" with
  // its number and punctuation on the wrong side) without a direction of its own. It takes the
  // direction of its first strong letter (dir="auto"); the card's place and type stay the page's.
  it('gives the title its own direction (dir="auto")', () => {
    const title = 'דנה, נעימה ודיסקרטית! 200$ לשעה';
    renderAt(<AdGrid ads={[makeCard({ title }), makeCard({ id: 'ad-2', title: 'Sunny afternoons together' })]} />);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => [h.textContent, h.getAttribute('dir')])).toEqual([
      [title, 'auto'],
      ['Sunny afternoons together', 'auto'],
    ]);
    for (const meta of screen.getAllByText(/New York City,/)) expect(meta.closest('[dir]')).toBeNull();
  });
});
