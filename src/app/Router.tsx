import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Switch } from 'wouter';
import { routes } from './routes';
import { RequireRole } from './guards';
import { PublicLayout } from '../components/PublicLayout';
import { DashboardLayout } from '../components/DashboardLayout';
import { Loading } from '../components/Loading';

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

type Lazy = LazyExoticComponent<ComponentType>;
const inPublic = (C: Lazy) => () => (
  <PublicLayout>
    <Suspense fallback={<Loading />}>
      <C />
    </Suspense>
  </PublicLayout>
);
const inDashboard = (C: Lazy, need: 'user' | 'admin' | 'master' = 'user') => () => (
  <RequireRole need={need}>
    <DashboardLayout>
      <Suspense fallback={<Loading />}>
        <C />
      </Suspense>
    </DashboardLayout>
  </RequireRole>
);

export function AppRoutes() {
  return (
    <Switch>
      <Route path={routes.home} component={inPublic(P.home)} />
      <Route path={routes.contactUs} component={inPublic(P.contactUs)} />
      <Route path={routes.faq} component={inPublic(P.faq)} />
      <Route path={routes.terms} component={inPublic(P.terms)} />
      <Route path={routes.agreement} component={inPublic(P.agreement)} />
      <Route path={routes.aboutUs} component={inPublic(P.aboutUs)} />
      <Route path={routes.reportCrime} component={inPublic(P.reportCrime)} />
      <Route path={routes.lawEnforcement} component={inPublic(P.lawEnforcement)} />
      <Route path={routes.listingsUs} component={inPublic(P.listingsUs)} />
      <Route path={routes.listingsState} component={inPublic(P.listingsState)} />
      <Route path={routes.listingsCity} component={inPublic(P.listingsCity)} />
      <Route path={routes.ad} component={inPublic(P.ad)} />
      <Route path={routes.search} component={inPublic(P.search)} />
      <Route path={routes.login} component={inPublic(P.login)} />
      <Route path={routes.register} component={inPublic(P.register)} />
      <Route path={routes.confirmEmail} component={inPublic(P.confirmEmail)} />
      <Route path={routes.dashboard} component={inDashboard(P.dashboard)} />
      <Route path={`${routes.dashboard}/`} component={inDashboard(P.dashboard)} />
      <Route path={routes.createAds} component={inDashboard(P.createAds)} />
      <Route path={routes.myProfile} component={inDashboard(P.myProfile)} />
      <Route path={routes.myWallet} component={inDashboard(P.myWallet)} />
      <Route path={routes.myCart} component={inDashboard(P.myCart)} />
      <Route path={routes.myAds} component={inDashboard(P.myAds)} />
      <Route path={routes.adminApprovedAds} component={inDashboard(P.adminApprovedAds, 'admin')} />
      <Route path={routes.adminPendingAds} component={inDashboard(P.adminPendingAds, 'admin')} />
      <Route path={routes.adminPricing} component={inDashboard(P.adminPricing, 'admin')} />
      <Route path={routes.adminPromoCodes} component={inDashboard(P.adminPromoCodes, 'admin')} />
      <Route path={routes.adminLocations} component={inDashboard(P.adminLocations, 'admin')} />
      <Route path={routes.adminHealthCheck} component={inDashboard(P.adminHealthCheck, 'admin')} />
      <Route path={routes.adminCronJobs} component={inDashboard(P.adminCronJobs, 'admin')} />
      <Route path={routes.adminSms} component={inDashboard(P.adminSms, 'admin')} />
      <Route path={routes.adminPaymentServer} component={inDashboard(P.adminPaymentServer, 'admin')} />
      <Route path={routes.adminReports} component={inDashboard(P.adminReports, 'admin')} />
      <Route path={routes.adminAuditLog} component={inDashboard(P.adminAuditLog, 'admin')} />
      <Route path={routes.masterApprovedUsers} component={inDashboard(P.masterApprovedUsers, 'master')} />
      <Route path={routes.masterPendingUsers} component={inDashboard(P.masterPendingUsers, 'master')} />
      <Route component={inPublic(P.notFound)} />
    </Switch>
  );
}
