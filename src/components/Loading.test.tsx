import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import i18n from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { renderAt } from '../test/render';
import { PageLoading } from './public/ProgressBar';
import { Loading } from './Loading';

describe('Loading', () => {
  it('a lazy page’s fallback (PageLoading) says it in the page’s language', async () => {
    await i18n.changeLanguage('es');
    const es = renderAt(<PageLoading />, '/es/admin/dashboard/my-wallet');
    expect(screen.getByRole('status').textContent).toBe('Cargando...');
    es.unmount();

    await i18n.changeLanguage('pt');
    renderAt(<PageLoading />, '/pt/admin/dashboard/my-wallet');
    expect(screen.getByRole('status').textContent).toBe('Carregando...');
  });

  it('says it in English on the very first boot, before any text has loaded, without waiting for them', () => {
    const booting = createInstance(); // not initialised: no language, no texts yet
    render(
      <I18nextProvider i18n={booting}>
        <Loading />
      </I18nextProvider>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading...');
  });
});
