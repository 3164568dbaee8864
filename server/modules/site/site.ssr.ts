import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PublicSource } from '../../../src/app/loaders.ts';
import type { PageHead } from '../../../src/app/pageHead.ts';

/** What the server renderer (src/entry-server.tsx, built into dist/.ssr/entry-server.js) exports. */
export interface SsrModule {
  render(url: string, source: PublicSource, opts?: { whole?: boolean }): Promise<Rendered>;
  classify(rest: string): 'page' | 'client' | 'missing';
  PAGE_MODULES: Record<string, string>;
  SHELL_MODULES: string[];
}

export interface Rendered {
  status: number;
  page: string;
  html: string;
  boot: string;
  ns: string[];
  locale: string;
  head: PageHead;
}

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * The built client as the server renderer uses it: the renderer, the page template, and per page
 * its CSS (inlined in the page: the only render-blocking resource is the page itself).
 */
export class SsrBuild {
  readonly module: SsrModule;
  template: string;
  private readonly dist: string;
  private readonly manifest: Record<string, ManifestChunk>;
  private readonly cssByPage = new Map<string, { inline: string; links: string }>();

  private constructor(dist: string, module: SsrModule, template: string, manifest: Record<string, ManifestChunk>) {
    this.dist = dist;
    this.module = module;
    this.template = template;
    this.manifest = manifest;
  }

  /** Loads dist/.ssr/entry-server.js and dist/.vite/manifest.json; null when the build has no renderer. */
  static async load(dist: string, template: string): Promise<SsrBuild | null> {
    const entry = path.join(dist, '.ssr', 'entry-server.js');
    const manifestFile = path.join(dist, '.vite', 'manifest.json');
    if (!fs.existsSync(entry) || !fs.existsSync(manifestFile)) return null;
    // The file's time in the URL: a rebuilt renderer is a new module, not the cached old one.
    const module = (await import(`${pathToFileURL(entry).href}?t=${fs.statSync(entry).mtimeMs}`)) as SsrModule;
    const build = new SsrBuild(dist, module, template, JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>);
    // Every page's CSS is read now: nothing of dist/ is read after start (a rebuild may replace it).
    for (const page of [...Object.keys(module.PAGE_MODULES), 'notFound']) build.css(page);
    return build;
  }

  /** The CSS files a page needs: the app's, the page chunk's and its imports', the footer's. */
  private cssFiles(page: string): string[] {
    const files = new Set<string>();
    const seen = new Set<string>();
    const walk = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      const chunk = this.manifest[key];
      if (!chunk) return;
      for (const c of chunk.css ?? []) files.add(c);
      for (const i of chunk.imports ?? []) walk(i);
    };
    walk('index.html');
    const pageModule = this.module.PAGE_MODULES[page];
    if (pageModule) walk(pageModule);
    for (const m of this.module.SHELL_MODULES) walk(m);
    return [...files];
  }

  /**
   * A page's CSS, inlined, and the same files as disabled links: the browser fetches nothing, and
   * Vite's loader of a lazy chunk, finding them, does not add (and wait for) them again.
   */
  css(page: string): { inline: string; links: string } {
    let css = this.cssByPage.get(page);
    if (!css) {
      const files = this.cssFiles(page);
      css = {
        inline: files.map((f) => fs.readFileSync(path.join(this.dist, f), 'utf8').trim()).join('\n'),
        links: files.map((f) => `<link rel="stylesheet" href="/${f}" disabled />`).join(''),
      };
      this.cssByPage.set(page, css);
    }
    return css;
  }
}

/**
 * React 19 writes `<link rel="preload" as="image">` for the page's eager images at the start of
 * its output. Those of high priority (the page's largest image) go into the head, where the
 * browser sees them first; the others (icons) are dropped. Either way they leave #root, whose
 * first children React's hydration skips over anyway.
 */
export function splitPreloads(html: string): { preloads: string; body: string } {
  const m = /^(?:<link [^>]*\/>)+/.exec(html);
  if (!m) return { preloads: '', body: html };
  const preloads = (m[0].match(/<link [^>]*\/>/g) ?? []).filter((l) => /rel="preload"/.test(l) && /fetchPriority="high"/i.test(l));
  return { preloads: preloads.join(''), body: html.slice(m[0].length) };
}
