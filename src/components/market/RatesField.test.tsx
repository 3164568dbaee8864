import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import i18n from 'i18next';
import { renderAt } from '../../test/render';
import { RatesField } from './RatesField';
import { rateRowProblem, type RateRow } from './adForm';

/** The field as the post-ad form shows it after a submit: its error worded at render (CreateAds' `err`). */
function Submitted({ rows }: { rows: RateRow[] }) {
  const { t } = useTranslation('market');
  const problem = rateRowProblem(rows, 0);
  return <RatesField rows={rows} onChange={() => {}} error={problem && t(problem.key, problem.values)} showLineErrors />;
}

describe('the rates field', () => {
  // The sign sits where the page's language writes it: '$ 150' in English, 'US$ 150' in
  // Portuguese, '150 US$' in Spanish (as every amount of those pages reads).
  it('shows the currency beside the price the page’s language’s way', async () => {
    const rows = [{ minutes: '60', price: '150' }];
    const signs = () =>
      [...document.querySelectorAll('li span[aria-hidden="true"]')].map((s) => `${s.textContent}${s.nextElementSibling ? ' before' : ' after'}`);
    const view = renderAt(<Submitted rows={rows} />);
    expect(signs()).toEqual(['$ before']);
    await act(() => i18n.changeLanguage('pt'));
    expect(signs()).toEqual(['US$ before']);
    await act(() => i18n.changeLanguage('es'));
    expect(signs()).toEqual(['US$ after']);
    view.unmount();
  });

  it('re-words the price rule’s limits when the language changes', async () => {
    renderAt(<Submitted rows={[{ minutes: '60', price: '0,10' }]} />);
    expect(screen.getByText(/^Each rate needs/).textContent).toBe('Each rate needs a duration and a price from $1.00 to $10,000.00.');
    await act(() => i18n.changeLanguage('es'));
    const es = new Intl.NumberFormat('es', { style: 'currency', currency: 'USD' });
    expect(screen.getByText(/^Cada tarifa necesita/).textContent).toBe(
      `Cada tarifa necesita una duración y un precio de ${es.format(1)} a ${es.format(10000)}.`,
    );
  });
});
