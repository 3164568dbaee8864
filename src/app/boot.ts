import type { Loaded } from './loaders';

/**
 * What a server-rendered page embeds for the browser (`<script type="application/json"
 * id="__DATA__">`): the page rendered, its loader's key and result, and the translation
 * namespaces it used, so the first render in the browser is the server's, with no second fetch.
 */
export interface Boot {
  /** The route's name in src/app/Router.tsx's page table. */
  page: string;
  key: string | null;
  result: Loaded<unknown>;
  ns: string[];
}
