import type { FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { defineRoutes, pageLocale, requestLocale } from '../../core/http.ts';
import { clearSessionCookie, sessionView, setSessionCookie } from '../../core/auth.ts';
import { pageLink } from '../../core/mail-templates.ts';
import { authApi } from '../../../contract/api/auth.ts';

export default defineRoutes(async (app, deps) => {
  const auth = deps.services.auth;

  // Asked on every app start: a plain function that sends (no promise per request), and outside
  // the cookie plugin's scope below (its onSend hook would run on every answer).
  app.get('/api/session', { schema: authApi['GET /api/session'] }, (request, reply) => {
    reply.header('cache-control', 'no-store').send(sessionView(request.user));
  });

  app.post('/api/password-reset-request', { schema: authApi['POST /api/password-reset-request'] }, async (request, reply) => {
    await auth.requestPasswordReset({ email: request.body.email }, request.ip, pageLocale(request));
    return reply.status(202).send({ accepted: true as const });
  });

  app.post('/api/password-reset', { schema: authApi['POST /api/password-reset'] }, async (request) => {
    await auth.resetPassword({ token: request.body.token, newPassword: request.body.newPassword }, request.ip);
    return { reset: true as const };
  });

  // One-click unsubscribe: the signed link is the authorization, and mail providers post from
  // their own servers (cross-site by nature), with a form body that says nothing more. RFC 8058
  // says that body SHOULD be multipart/form-data (and MAY be urlencoded): both are read and dropped.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, _body, done) => done(null, {}));
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) => done(null, {}));
    scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .post('/api/unsubscribe', { schema: authApi['POST /api/unsubscribe'], config: { allowCrossSite: true } }, async (request) => {
        await auth.unsubscribeReminders({ userId: request.query.u, token: request.query.t });
        return { unsubscribed: true as const };
      });
  });

  // The same address opened in a browser (mail clients without one-click, RFC 2369): a GET never
  // unsubscribes (link scanners and previews fetch it), it leads to the page that asks to confirm.
  // The link's own u and t go along as given: the page's POST checks them.
  app.get('/api/unsubscribe', { schema: authApi['GET /api/unsubscribe'] }, (request, reply) => {
    const { u, t } = request.query;
    const page = pageLink(deps.config.publicUrl, requestLocale(request), `/unsubscribe?u=${encodeURIComponent(u)}&t=${encodeURIComponent(t)}`);
    reply.header('cache-control', 'no-store').redirect(page, 303);
  });

  // The routes that start and end sessions, with the cookie plugin (reply.setCookie).
  await app.register(async (scope) => {
    await scope.register(cookie, { hook: false });
    const routes = scope.withTypeProvider<TypeBoxTypeProvider>();

    routes.post('/api/register', { schema: authApi['POST /api/register'] }, async (request, reply) => {
      const { email, password, nickname } = request.body;
      const user = await auth.register({ email, password, nickname }, request.ip, request.headers['user-agent'] ?? null);
      await auth.rememberLocale(user.id, requestLocale(request));
      setSessionCookie(reply, request, deps, user);
      return reply.status(201).send(sessionView(user));
    });

    routes.post('/api/login', { schema: authApi['POST /api/login'] }, async (request, reply) => {
      const { email, password } = request.body;
      const user = await auth.login({ email, password }, request.ip, request.headers['user-agent'] ?? null);
      await auth.rememberLocale(user.id, pageLocale(request));
      setSessionCookie(reply, request, deps, user);
      return sessionView(user);
    });

    // POST is what the client uses; the seed's GET stays, refused cross-site like any state change
    // (a link on another site would otherwise sign the visitor out).
    const logout = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.user) await auth.logoutEverywhere(request.user.id);
      clearSessionCookie(reply);
      return sessionView(null);
    };
    routes.post('/api/logout', { schema: authApi['POST /api/logout'] }, logout);
    routes.get('/api/logout', { config: { changesState: true }, schema: authApi['GET /api/logout'] }, logout);
  });
});
