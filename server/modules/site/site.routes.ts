import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../../core/errors.ts';
import { ipKey, WindowLimiter } from '../../core/ratelimit.ts';
import { defineRoutes, routedPath } from '../../core/http.ts';
import { accepts, noneMatch } from '../../core/encoding.ts';
import { precompress } from './site.compress.ts';
import { SsrBuild } from './site.ssr.ts';

const gzipAsync = promisify(gzip);

/**
 * Serves the built client: hashed assets immutable; public pages rendered on the server
 * (dist/.ssr/entry-server.js) with their data, the other page routes as index.html with their
 * head tags (an unknown /api/... stays a JSON 404); the sitemap index, its files and robots.txt.
 */
export default defineRoutes(async (app, deps) => {
  const site = deps.services.site;
  const sendXml = async (request: FastifyRequest, reply: FastifyReply, xml: string) => {
    reply.header('cache-control', 'public, max-age=3600').header('vary', 'accept-encoding').type('application/xml; charset=utf-8');
    // An ads file is about 3 MB of XML (117 kB gzipped); compressed off the event loop.
    if (xml.length < 16_384 || !accepts(request.headers['accept-encoding'], 'gzip')) return reply.send(xml);
    return reply.header('content-encoding', 'gzip').send(await gzipAsync(xml));
  };
  // Each answer is built on demand, tens of milliseconds at a million ads: a ceiling per address.
  const sitemapLimiter = new WindowLimiter(deps.clock, deps.limits.sitemapPerMinute, 60_000);
  app.get('/sitemap.xml', async (request, reply) => {
    sitemapLimiter.hit([`sitemap:${ipKey(request.ip)}`], 'request.rate_limited');
    return sendXml(request, reply, await site.sitemapIndex());
  });
  app.get('/sitemaps/:file', async (request, reply) => {
    sitemapLimiter.hit([`sitemap:${ipKey(request.ip)}`], 'request.rate_limited');
    const xml = await site.sitemapFile((request.params as { file: string }).file);
    if (xml === undefined) throw new NotFound();
    return sendXml(request, reply, xml);
  });
  app.get('/robots.txt', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('text/plain; charset=utf-8').send(site.robots()),
  );
  const dist = deps.distDir;
  if (!dist) return;
  const indexHtml = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const ssr = await SsrBuild.load(dist, indexHtml);
  if (ssr) site.useBuild(ssr);
  else deps.log.warn({ dist }, 'no server renderer in the build (dist/.ssr): pages are served as the client app only; run `npm run build`');
  if (fs.existsSync(path.join(dist, 'assets'))) precompress(path.join(dist, 'assets'), deps.log);
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    // The bare template is no page: /index.html answers as /es/index.html does (the 404 page,
    // below), not as a second, empty copy of the home page.
    globIgnore: ['index.html'],
    preCompressed: true, // dist/assets/*.br and *.gz, written by precompress()
    // @fastify/static 10 passes the Fastify reply here (older versions passed the raw response).
    setHeaders(res, filePath) {
      const reply = res as unknown as { header(name: string, value: string): void };
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', async (request, reply) => {
    const url = routedPath(request.url);
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/assets/') || url.startsWith('/uploads/') || url.startsWith('/.')) {
      throw new NotFound(); // as an unknown route by any other method is answered
    }
    const page = await site.page(indexHtml, request.url);
    // Another spelling of a page's URL (/es/, ?page=1): one URL per page, for crawlers and caches.
    if (page.location) return reply.status(301).header('location', page.location).header('cache-control', 'public, max-age=3600').send();
    const encoding = site.encodingOf(page, request.headers['accept-encoding']);
    const etag = site.etagOf(page, encoding);
    reply.status(page.status).header('cache-control', 'no-cache').header('etag', etag).header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (page.status === 200 && noneMatch(request.headers['if-none-match'], etag)) return reply.status(304).send();
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(site.encoded(page, encoding));
  });
});
