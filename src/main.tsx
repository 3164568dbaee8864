import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { splitLocale } from './app/locale';
import { App } from './app/App';
import { preloadPage } from './app/Router';
import { seedRouteData } from './app/routeStore';
import type { Boot } from './app/boot';
import './styles/global.css';

// A public page comes rendered by the server, with its data in #__DATA__ (server/modules/site):
// the page's code and texts are loaded first, then React takes over the HTML as it is (hydrate).
// Other pages (sign-in, the dashboard) come empty and are rendered here.
const root = document.getElementById('root')!;
const i18n = initI18n(splitLocale(window.location.pathname).locale);
const boot = document.getElementById('__DATA__')?.textContent;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

if (boot) {
  const b = JSON.parse(boot) as Boot;
  if (b.key) seedRouteData(b.key, b.result);
  const initialized = new Promise<void>((resolve) => (i18n.isInitialized ? resolve() : i18n.on('initialized', () => resolve())));
  void Promise.all([preloadPage(b.page), initialized, i18n.loadNamespaces(b.ns)]).then(() =>
    hydrateRoot(root, app, {
      // A mismatch is a bug: say so in the console (the e2e suite fails on it).
      onRecoverableError: (error) => console.error('hydration:', error),
    }),
  );
} else {
  createRoot(root).render(app);
}
