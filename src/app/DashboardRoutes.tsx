import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { routes } from './routes';
import { EDIT_AD_ROUTE } from '../pages/dashboard/paths';
import { RequireRole as Guard } from './guards';
import { DashboardLayout } from '../components/DashboardLayout';
import { PageLoading } from '../components/public/ProgressBar';

// Split from Router.tsx so the dashboard's route table, shell and guard load only when a
// dashboard page is opened (the home page's first script stays within its budget).
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);
const notFound = page(() => import('../pages/public/NotFound'));

const P = {
  dashboard: page(() => import('../pages/dashboard/MyDashboard')),
  createAds: page(() => import('../pages/dashboard/CreateAds')),
  myProfile: page(() => import('../pages/dashboard/MyProfile')),
  myWallet: page(() => import('../pages/dashboard/MyWallet')),
  myCart: page(() => import('../pages/dashboard/MyCart')),
  myAds: page(() => import('../pages/dashboard/MyAds')),
  editAd: page(() => import('../pages/dashboard/EditAd')),
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
  adminSearchAds: page(() => import('../pages/admin/SearchAds')),
  adminUser: page(() => import('../pages/admin/UserDetail')),
  adminScreeningLog: page(() => import('../pages/admin/ScreeningLog')),
  adminPageViews: page(() => import('../pages/admin/PageViews')),
  masterApprovedUsers: page(() => import('../pages/master/ApprovedUsers')),
  masterPendingUsers: page(() => import('../pages/master/PendingUsers')),
};

type Need = 'user' | 'admin' | 'master';
const guarded = (C: ComponentType, need: Need) => () => (
  <Guard need={need}>
    <C />
  </Guard>
);

// The layout wraps a Switch of its pages, so moving between pages keeps it mounted (its drawer,
// menus and the 100 ms close delay survive navigation) and only the page suspends.
function Dashboard({ children }: { children: ReactNode }) {
  return (
    <Guard need="user">
      <DashboardLayout>
        <Suspense fallback={<PageLoading />}>{children}</Suspense>
      </DashboardLayout>
    </Guard>
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
  adminSearchAds: guarded(P.adminSearchAds, 'admin'),
  adminUser: guarded(P.adminUser, 'admin'),
  adminScreeningLog: guarded(P.adminScreeningLog, 'admin'),
  adminPageViews: guarded(P.adminPageViews, 'admin'),
  masterApprovedUsers: guarded(P.masterApprovedUsers, 'master'),
  masterPendingUsers: guarded(P.masterPendingUsers, 'master'),
};

export default function DashboardRoutes() {
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
        <Route path={EDIT_AD_ROUTE} component={P.editAd} />
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
        <Route path={routes.adminSearchAds} component={D.adminSearchAds} />
        <Route path={routes.adminUser} component={D.adminUser} />
        <Route path={routes.adminScreeningLog} component={D.adminScreeningLog} />
        <Route path={routes.adminPageViews} component={D.adminPageViews} />
        <Route path={routes.masterApprovedUsers} component={D.masterApprovedUsers} />
        <Route path={routes.masterPendingUsers} component={D.masterPendingUsers} />
        <Route component={notFound} />
      </Switch>
    </Dashboard>
  );
}
