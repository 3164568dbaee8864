import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { http } from 'msw';
import { Route } from 'wouter';
import { server } from '../../test/server';
import { apiJson } from '../../test/contract';
import { renderAt } from '../../test/render';
import { makeAd, makeCard } from '../../components/market/testing';
import { AdGrid } from '../../components/market/AdCard';
import styles from '../../components/market/market.module.css';
import AdDetail from './AdDetail';

// A long URL or an unbroken word in an ad ("hiiiii…", a link pasted whole) must break inside the
// line, not widen the page on a phone. jsdom lays nothing out, but it cascades a style sheet: the
// ad page's CSS module is applied under the class names the components get, and the rules that let
// a long word break are read from the elements that hold the ad's text.

const LONG_WORD = `https://example.com/${'x'.repeat(200)}`;
const CSS = fs.readFileSync(path.resolve(import.meta.dirname, '../../components/market/market.module.css'), 'utf8');
let sheet: HTMLStyleElement;
beforeEach(() => {
  sheet = document.createElement('style');
  sheet.textContent = CSS.replace(/\.([A-Za-z][\w-]*)/g, (_, cls: string) => `.${styles[cls]}`); // as the test runner names them
  document.head.append(sheet);
});
afterEach(() => sheet.remove());

describe('an ad’s long words', () => {
  it('break inside the ad page’s title and description, whose column may shrink below its longest word', async () => {
    const ad = makeAd({ title: `Call ${LONG_WORD}`, description: `Hi!\n${LONG_WORD}` });
    server.use(http.get('/api/ads/:id', () => apiJson('GET /api/ads/:id', { ad })));
    renderAt(<Route path="/ad/:id" component={AdDetail} />, `/ad/${ad.id}`);
    const h1 = await screen.findByRole('heading', { level: 1, name: ad.title });
    const p = screen.getByText((_, el) => el?.tagName === 'P' && el.textContent === ad.description);
    const column = p.parentElement!;
    expect({
      title: getComputedStyle(h1).overflowWrap,
      description: getComputedStyle(p).overflowWrap,
      columnMinWidth: getComputedStyle(column).minWidth,
      gridItem: column.parentElement === p.closest(`.${styles.adColumns}`),
    }).toEqual({ title: 'anywhere', description: 'anywhere', columnMinWidth: '0px', gridItem: true });
  });

  it('break inside a listing card’s title', () => {
    renderAt(<AdGrid ads={[makeCard({ title: `Call ${LONG_WORD}` })]} />);
    expect(getComputedStyle(screen.getByRole('heading', { level: 3 })).overflowWrap).toBe('anywhere');
  });
});
