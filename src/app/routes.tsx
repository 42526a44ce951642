import type { ComponentType } from 'react';
import { lazyScreen } from '@/lib/session/chunks';
import { registerRoutePaths } from '@/lib/session/routeRegistry';
import { LandingRedirect } from './LandingRedirect';

/** 'auth' routes need a live session (core §2 guard); 'public' ones are open to anyone. */
export type RouteAccess = 'public' | 'auth';
/** 'shell' shows the navbar; 'bare' is a full page (sign-in); 'auto' takes the shell when signed in. */
export type RouteLayout = 'shell' | 'bare' | 'auto';

export interface AppRoute {
  /** A wouter (regexparam) pattern, relative to the site root. */
  path: string;
  access: RouteAccess;
  layout: RouteLayout;
  /** The screen; `lazyScreen(() => import(...))` gives it its own chunk (and a `preload`). */
  screen?: ComponentType & { preload?: () => void };
  /** A fixed redirect instead of a screen. */
  redirect?: string;
}

// One chunk each for a group's and an organisation's tabs (each tab has its own address).
const GroupPage = lazyScreen(() => import('@/features/admin/group/GroupPage'));
const OrganizationPage = lazyScreen(() => import('@/features/admin/organization/OrganizationPage'));

/**
 * The route table (core §2). A feature adds its screen with one line. Only screens that exist are
 * registered: the navbar shows an entry only when its route is here.
 */
export const routes: AppRoute[] = [
  { path: '/', access: 'auth', layout: 'shell', screen: LandingRedirect },
  { path: '/studies', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/worklist/WorklistPage')) },
  { path: '/login', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/auth/LoginPage'), { texts: 'core' }) },
  { path: '/register', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/auth/RegisterPage')) },
  { path: '/forget-password', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/auth/ForgetPasswordPage')) },
  { path: '/change-password', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/auth/ChangePasswordPage')) },
  { path: '/auth/token', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/auth/TokenPage')) },
  { path: '/settings', access: 'auth', layout: 'shell', redirect: '/settings/profile' },
  { path: '/settings/profile', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/ProfilePage')) },
  { path: '/settings/signature', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/SignaturePage')) },
  { path: '/settings/mobile', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/MobilePage')) },
  { path: '/settings/notification', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/NotificationPage')) },
  { path: '/settings/groups', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/GroupsPage')) },
  { path: '/settings/admin', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/settings/AdminPage')) },
  { path: '/viewer/:examId', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/viewer/ViewerPage')) },
  { path: '/upload', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/upload/UploadPage')) },
  { path: '/service-orders/upload', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/upload/CodeUploadPage')) },
  { path: '/attachments/upload', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/upload/AttachmentUploadPage')) },
  { path: '/reports/s', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/share/SharedReportPage')) },
  { path: '/sf/:link', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/share/FilmPage')) },
  { path: '/efilm/query', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/share/FilmQueryPage')) },
  { path: '/web-report', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/share/WebReportPage')) },
  { path: '/reports/:orgCode/list', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/share/OrgReportListPage')) },
  { path: '/studies/:examId/reports/:reportId', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/report/ReportWorkspacePage')) },
  { path: '/studies/:examId/reports/:reportId/print', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/report/print/PrintPage')) },
  { path: '/registry', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/registry/RegistryPage')) },
  { path: '/registry/labels', access: 'auth', layout: 'bare', screen: lazyScreen(() => import('@/features/registry/labels/LabelsPage')) },
  { path: '/calling', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/calling/CallingPage')) },
  { path: '/calling/:bucketId/screen-show', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/calling/screen/ScreenShowPage')) },
  { path: '/accounts', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/admin/AccountsPage')) },
  { path: '/groups', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/admin/GroupsPage')) },
  { path: '/groups/create', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/admin/GroupCreatePage')) },
  { path: '/groups/:groupId', access: 'auth', layout: 'shell', screen: GroupPage },
  ...['organizations', 'members', 'settings'].map((tab): AppRoute => ({ path: `/groups/:groupId/${tab}`, access: 'auth', layout: 'shell', screen: GroupPage })),
  { path: '/groups/:groupId/organizations/:organizationId', access: 'auth', layout: 'shell', screen: OrganizationPage },
  ...['roles', 'settings', 'procedures', 'print-templates', 'sample-graphs', 'hl7'].map((tab): AppRoute => ({ path: `/groups/:groupId/organizations/:organizationId/${tab}`, access: 'auth', layout: 'shell', screen: OrganizationPage })),
  { path: '/report-publish', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/publish/PublishListPage')) },
  { path: '/report-publish/detail', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/publish/PublishDetailPage')) },
  { path: '/templates', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/templates/TemplatesPage')) },
  { path: '/learning', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/learning/LearningListPage')) },
  { path: '/learning/:id', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/learning/LearningDetailPage')) },
  { path: '/help', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('./help/HelpPage')) },
  { path: '/kb', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/kb/KbPage')) },
  // Fixed consultation paths before /consultations/:id (the first match wins).
  { path: '/consultations', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/list/ConsultationListPage')) },
  { path: '/consultations/my', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/list/MyConsultationsPage')) },
  { path: '/consultations/add', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/create/CreateConsultationPage')) },
  { path: '/consultations/:id', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/detail/DetailPage')) },
  { path: '/consultations/:id/print', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/print/PrintPage')) },
  { path: '/consultations/:id/related/:linkId', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/consultations/detail/RelatedPage')) },
  // Expert and remote report requests (areas §2): the apply screen is guarded; the order and charge pages are open
  // addresses (a link handed over) whose screens ask to sign in for their calls.
  { path: '/:examId/apply-report', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/payments/apply/ApplyPage')) },
  { path: '/:examId/apply-report/:applicationId', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/payments/order/OrderPage')) },
  { path: '/charge/:id', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/payments/charge/ChargePage')) },
  { path: '/sandbox-pay/:outTradeNo', access: 'public', layout: 'bare', screen: lazyScreen(() => import('@/features/payments/sandbox/SandboxPayPage')) },
  { path: '/orders', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/payments/orders/OrderListPage')) },
  { path: '/orders/:id', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/payments/orders/OrderDetailPage')) },
  { path: '/group-statistics', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/statistics/GroupStatisticsPage')) },
  { path: '/groups/:groupId/statistics', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/statistics/GroupStatisticsByIdPage')) },
  { path: '/credit', access: 'auth', layout: 'shell', screen: lazyScreen(() => import('@/features/payments/credit/CreditPage')) },
  { path: '/401', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/errors/UnauthorizedPage')) },
  { path: '/404', access: 'public', layout: 'auto', screen: lazyScreen(() => import('@/features/errors/NotFoundPage')) },
];

// Shared code and features ask lib/session/routeRegistry whether a screen exists; the table tells it here.
registerRoutePaths(routes.map((route) => route.path));

/** Shown for any path no route matches (core §2 catch-all). */
export const notFoundRoute: AppRoute = {
  path: '*',
  access: 'public',
  layout: 'auto',
  screen: lazyScreen(() => import('@/features/errors/NotFoundPage')),
};
