import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { routes } from './routes';
import { PublicLayout } from '../components/PublicLayout';
import { PageLoading } from '../components/public/ProgressBar';

// One lazy-loaded component per route: the home page's bundle stays small and the dashboard
// and staff screens are chunks of their own.
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

const P = {
  home: page(() => import('../pages/public/Home')),
  contactUs: page(() => import('../pages/public/ContactUs')),
  faq: page(() => import('../pages/public/Faq')),
  terms: page(() => import('../pages/public/Terms')),
  agreement: page(() => import('../pages/public/Agreement')),
  aboutUs: page(() => import('../pages/public/AboutUs')),
  reportCrime: page(() => import('../pages/public/ReportCrime')),
  lawEnforcement: page(() => import('../pages/public/LawEnforcement')),
  listingsUs: page(() => import('../pages/public/ListingsUs')),
  listingsState: page(() => import('../pages/public/ListingsState')),
  listingsCity: page(() => import('../pages/public/ListingsCity')),
  ad: page(() => import('../pages/public/AdDetail')),
  search: page(() => import('../pages/public/Search')),
  notFound: page(() => import('../pages/public/NotFound')),
  login: page(() => import('../pages/auth/Login')),
  register: page(() => import('../pages/auth/Register')),
  confirmEmail: page(() => import('../pages/auth/ConfirmEmail')),
  dashboard: page(() => import('../pages/dashboard/MyDashboard')),
  createAds: page(() => import('../pages/dashboard/CreateAds')),
  myProfile: page(() => import('../pages/dashboard/MyProfile')),
  myWallet: page(() => import('../pages/dashboard/MyWallet')),
  myCart: page(() => import('../pages/dashboard/MyCart')),
  myAds: page(() => import('../pages/dashboard/MyAds')),
  adminApprovedAds: page(() => import('../pages/admin/ApprovedAds')),
  adminPendingAds: page(() => import('../pages/admin/PendingAds')),
  adminPricing: page(() => import('../pages/admin/Pricing')),
  adminPromoCodes: page(() => import('../pages/admin/PromoCodes')),
  adminLocations: page(() => import('../pages/admin/Locations')),
  adminHealthCheck: page(() => import('../pages/admin/HealthCheck')),
  adminCronJobs: page(() => import('../pages/admin/CronJobs')),
  adminSms: page(() => import('../pages/admin/Sms')),
  adminPaymentServer: page(() => import('../pages/admin/PaymentServer')),
  adminReports: page(() => import('../pages/admin/Reports')),
  adminAuditLog: page(() => import('../pages/admin/AuditLog')),
  masterApprovedUsers: page(() => import('../pages/master/ApprovedUsers')),
  masterPendingUsers: page(() => import('../pages/master/PendingUsers')),
};

// The dashboard shell and its guard are a chunk of their own, with the session store and HTTP
// client they use: none of it is needed to paint a public page.
type Need = 'user' | 'admin' | 'master';
const Guard = lazy(() => import('./guards').then((m) => ({ default: m.RequireRole })));
const DashboardLayout = lazy(() => import('../components/DashboardLayout').then((m) => ({ default: m.DashboardLayout })));

const guarded = (C: ComponentType, need: Need) => () => (
  <Guard need={need}>
    <C />
  </Guard>
);

// Layouts wrap a Switch of their pages, so moving between pages keeps the layout mounted (its
// drawer, menus and the 100 ms close delay survive navigation) and only the page suspends.
function Dashboard({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<PageLoading />}>
      <Guard need="user">
        <DashboardLayout>
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </DashboardLayout>
      </Guard>
    </Suspense>
  );
}

const D = {
  adminApprovedAds: guarded(P.adminApprovedAds, 'admin'),
  adminPendingAds: guarded(P.adminPendingAds, 'admin'),
  adminPricing: guarded(P.adminPricing, 'admin'),
  adminPromoCodes: guarded(P.adminPromoCodes, 'admin'),
  adminLocations: guarded(P.adminLocations, 'admin'),
  adminHealthCheck: guarded(P.adminHealthCheck, 'admin'),
  adminCronJobs: guarded(P.adminCronJobs, 'admin'),
  adminSms: guarded(P.adminSms, 'admin'),
  adminPaymentServer: guarded(P.adminPaymentServer, 'admin'),
  adminReports: guarded(P.adminReports, 'admin'),
  adminAuditLog: guarded(P.adminAuditLog, 'admin'),
  masterApprovedUsers: guarded(P.masterApprovedUsers, 'master'),
  masterPendingUsers: guarded(P.masterPendingUsers, 'master'),
};

function DashboardRoutes() {
  return (
    <Dashboard>
      <Switch>
        <Route path={routes.dashboard} component={P.dashboard} />
        <Route path={`${routes.dashboard}/`} component={P.dashboard} />
        <Route path={routes.createAds} component={P.createAds} />
        <Route path={routes.myProfile} component={P.myProfile} />
        <Route path={routes.myWallet} component={P.myWallet} />
        <Route path={routes.myCart} component={P.myCart} />
        <Route path={routes.myAds} component={P.myAds} />
        <Route path={routes.adminApprovedAds} component={D.adminApprovedAds} />
        <Route path={routes.adminPendingAds} component={D.adminPendingAds} />
        <Route path={routes.adminPricing} component={D.adminPricing} />
        <Route path={routes.adminPromoCodes} component={D.adminPromoCodes} />
        <Route path={routes.adminLocations} component={D.adminLocations} />
        <Route path={routes.adminHealthCheck} component={D.adminHealthCheck} />
        <Route path={routes.adminCronJobs} component={D.adminCronJobs} />
        <Route path={routes.adminSms} component={D.adminSms} />
        <Route path={routes.adminPaymentServer} component={D.adminPaymentServer} />
        <Route path={routes.adminReports} component={D.adminReports} />
        <Route path={routes.adminAuditLog} component={D.adminAuditLog} />
        <Route path={routes.masterApprovedUsers} component={D.masterApprovedUsers} />
        <Route path={routes.masterPendingUsers} component={D.masterPendingUsers} />
        <Route component={P.notFound} />
      </Switch>
    </Dashboard>
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
          <Route path={routes.listingsUs} component={P.listingsUs} />
          <Route path={routes.listingsState} component={P.listingsState} />
          <Route path={routes.listingsCity} component={P.listingsCity} />
          <Route path={routes.ad} component={P.ad} />
          <Route path={routes.search} component={P.search} />
          <Route path={routes.login} component={P.login} />
          <Route path={routes.register} component={P.register} />
          <Route path={routes.confirmEmail} component={P.confirmEmail} />
          <Route component={P.notFound} />
        </Switch>
      </Suspense>
    </PublicLayout>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path={routes.dashboard} component={DashboardRoutes} />
      <Route path={`${routes.dashboard}/*`} component={DashboardRoutes} />
      <Route component={PublicRoutes} />
    </Switch>
  );
}
