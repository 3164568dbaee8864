// The frames of rendered pages: what every page of one kind in one language has in common, as
// bytes made once per build (encoded, hashed, its head compressed off the event loop).
import { createHash } from 'node:crypto';
import type { AppDeps } from '../../core/deps.ts';
import type { SeoLocale } from '../../../contract/seo.ts';
import { injectHead } from './site.head.ts';
import type { SsrBuild } from './site.ssr.ts';
import { brotliHeadOffThread, headText, type BrotliHead } from './site.brotli.ts';

/** What a page of one kind in one language has in common with every other: its template and CSS, as bytes. */
export interface PageFrame {
  /** The template up to its head tags, then the page's CSS and the spaces site.brotli.ts joins with. */
  head: Buffer;
  /** `head` compressed (at the best quality), for the pages' brotli copies to follow; null until made (off the event loop). */
  brHead: BrotliHead | null;
  /** Settles once brHead is made (or failed: pages are then compressed whole). */
  ready: Promise<void>;
  beforeRoot: Buffer;
  beforeData: Buffer;
  end: Buffer;
  hash: Buffer;
}

/** The frames of this build's pages, made on first demand. */
export class PageFrames {
  private readonly deps: Pick<AppDeps, 'log'>;
  /** By language and kind of page, for this build. */
  private readonly frames = new Map<string, PageFrame>();

  constructor(deps: Pick<AppDeps, 'log'>) {
    this.deps = deps;
  }

  /** Forgets every frame (a new build). */
  clear(): void {
    this.frames.clear();
  }

  /** Settles once every page head made so far is compressed (tests). */
  async framesReady(): Promise<void> {
    await Promise.all([...this.frames.values()].map((f) => f.ready));
  }

  /** The constant bytes of a page of this kind in this language, of this build (see SiteService.document). */
  pageFrame(ssr: SsrBuild, locale: SeoLocale, page: string): PageFrame {
    const key = `${locale} ${page}`;
    let frame = this.frames.get(key);
    if (!frame) {
      const HEAD = '\u0000head\u0000';
      const ROOT = '<div id="root"></div>';
      const shell = injectHead(ssr.template, HEAD, locale);
      const [beforeHead, afterHead] = shell.split(HEAD) as [string, string];
      const r = afterHead.indexOf(ROOT);
      const css = ssr.css(page);
      // The CSS comes before the head tags (title, description, Open Graph): it is the same on every
      // page of the kind, so it belongs to the part compressed once.
      const head = `${beforeHead}<style>${css.inline}</style>${css.links}`;
      const beforeRoot = `${afterHead.slice(0, r)}<div id="root">`;
      const beforeData = '</div><script type="application/json" id="__DATA__">';
      const end = `</script>${afterHead.slice(r + ROOT.length)}`;
      const prefix = Buffer.from(head);
      const text = headText(prefix);
      const made: PageFrame = {
        head: text,
        brHead: null,
        ready: brotliHeadOffThread(prefix).then(
          (h) => void (made.brHead = h),
          (err: unknown) => this.deps.log.error({ err, page }, 'compressing a page head failed: its pages are compressed whole'),
        ),
        beforeRoot: Buffer.from(beforeRoot),
        beforeData: Buffer.from(beforeData),
        end: Buffer.from(end),
        hash: createHash('sha1').update(text).update([beforeRoot, beforeData, end].join('\0')).digest(),
      };
      frame = made;
      this.frames.set(key, frame);
    }
    return frame;
  }
}
