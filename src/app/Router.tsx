import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { routes } from './routes';
import { lazyPage } from './lazyPage';
import { PublicLayout } from '../components/PublicLayout';
import { PageLoading } from '../components/public/ProgressBar';

// One lazy-loaded component per route: the home page's bundle stays small and the dashboard
// and staff screens are chunks of their own. A server-rendered page is loaded before hydration
// (preloadPage), so it hydrates without suspending.
const page = lazyPage;

const P = {
  home: page(() => import('../pages/public/Home')),
  contactUs: page(() => import('../pages/public/ContactUs')),
  faq: page(() => import('../pages/public/Faq')),
  terms: page(() => import('../pages/public/Terms')),
  agreement: page(() => import('../pages/public/Agreement')),
  aboutUs: page(() => import('../pages/public/AboutUs')),
  reportCrime: page(() => import('../pages/public/ReportCrime')),
  lawEnforcement: page(() => import('../pages/public/LawEnforcement')),
  transparency: page(() => import('../pages/public/Transparency')),
  listingsUs: page(() => import('../pages/public/ListingsUs')),
  listingsState: page(() => import('../pages/public/ListingsState')),
  listingsCity: page(() => import('../pages/public/ListingsCity')),
  ad: page(() => import('../pages/public/AdDetail')),
  search: page(() => import('../pages/public/Search')),
  notFound: page(() => import('../pages/public/NotFound')),
  login: page(() => import('../pages/auth/Login')),
  register: page(() => import('../pages/auth/Register')),
  confirmEmail: page(() => import('../pages/auth/ConfirmEmail')),
  forgotPassword: page(() => import('../pages/auth/ForgotPassword')),
  resetPassword: page(() => import('../pages/auth/ResetPassword')),
  unsubscribe: page(() => import('../pages/auth/Unsubscribe')),
  sandboxCheckout: page(() => import('../pages/public/SandboxCheckout')),
};

/** A page's component by route name (the server renderer renders some pages on their own: entry-server.tsx). */
export const pageComponent = (name: string) => (P as Record<string, (typeof P)[keyof typeof P] | undefined>)[name];

/** Loads a page's code ahead of its render (main.tsx before hydrating, the server renderer). */
export const preloadPage = (name: string): Promise<void> =>
  (P as Record<string, { preload(): Promise<void> } | undefined>)[name]?.preload() ?? Promise.resolve();

// The dashboard (its route table, shell, guard, and the session store and HTTP client they use)
// is a chunk of its own: none of it is needed to paint a public page.
const DashboardRoutes = lazy(() => import('./DashboardRoutes'));

function Dashboard() {
  return (
    <Suspense fallback={<PageLoading />}>
      <DashboardRoutes />
    </Suspense>
  );
}

function PublicRoutes() {
  return (
    <PublicLayout>
      <Suspense fallback={<PageLoading />}>
        <Switch>
          <Route path={routes.home} component={P.home} />
          <Route path={routes.contactUs} component={P.contactUs} />
          <Route path={routes.faq} component={P.faq} />
          <Route path={routes.terms} component={P.terms} />
          <Route path={routes.agreement} component={P.agreement} />
          <Route path={routes.aboutUs} component={P.aboutUs} />
          <Route path={routes.reportCrime} component={P.reportCrime} />
          <Route path={routes.lawEnforcement} component={P.lawEnforcement} />
          <Route path={routes.transparency} component={P.transparency} />
          <Route path={routes.listingsUs} component={P.listingsUs} />
          <Route path={routes.listingsState} component={P.listingsState} />
          <Route path={routes.listingsCity} component={P.listingsCity} />
          <Route path={routes.ad} component={P.ad} />
          <Route path={routes.search} component={P.search} />
          <Route path={routes.login} component={P.login} />
          <Route path={routes.register} component={P.register} />
          <Route path={routes.confirmEmail} component={P.confirmEmail} />
          <Route path={routes.forgotPassword} component={P.forgotPassword} />
          <Route path={routes.resetPassword} component={P.resetPassword} />
          <Route path={routes.unsubscribe} component={P.unsubscribe} />
          <Route path={routes.sandboxCheckout} component={P.sandboxCheckout} />
          <Route component={P.notFound} />
        </Switch>
      </Suspense>
    </PublicLayout>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path={routes.dashboard} component={Dashboard} />
      <Route path={`${routes.dashboard}/*`} component={Dashboard} />
      <Route component={PublicRoutes} />
    </Switch>
  );
}
