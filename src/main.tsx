import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { splitLocale } from './app/locale';
import { App } from './app/App';
import './styles/global.css';

initI18n(splitLocale(window.location.pathname).locale);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
