import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompressPlugin } from './scripts/precompress.ts';

// `vite build` builds two things (builder below): the browser app into dist/ (with a manifest of
// its chunks, dist/.vite/manifest.json), then the server renderer, src/entry-server.tsx, into one
// self-contained file, dist/.ssr/entry-server.js, which the server imports (server/modules/site).
// XG_BUILD_OUT builds elsewhere (the server tests build into a temporary directory);
// XG_PRECOMPRESS=0 skips the compressed copies (they take most of the build's time).
const out = process.env.XG_BUILD_OUT ?? 'dist';

// The server renderer written in ASCII only (every other character as a \u escape, which means the
// same in strings, templates and regular expressions): V8 keeps a script's source for as long as
// the script lives, one byte a character when it is all Latin-1, two bytes otherwise. A single
// typographic quote in a translation made the 1.5 MB file 3 MB of the server's heap.
function asciiServerRenderer(): Plugin {
  return {
    name: 'xg-ascii-server-renderer',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk') chunk.code = chunk.code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      }
    },
  };
}

// The server renderer's react-i18next: src/lib/react-i18next-server.ts (a leaner useTranslation).
function serverI18n(): Plugin {
  const shim = fileURLToPath(new URL('./src/lib/react-i18next-server.ts', import.meta.url));
  return {
    name: 'xg-server-i18n',
    enforce: 'pre',
    apply: 'build', // never in the tests' transforms, which run src/ with the real react-i18next
    applyToEnvironment: (environment) => environment.name === 'ssr',
    resolveId: (id, importer) => (id === 'react-i18next' && importer !== shim ? shim : null),
  };
}

export default defineConfig({
  plugins: [react(), asciiServerRenderer(), serverI18n(), ...(process.env.XG_PRECOMPRESS === '0' ? [] : [precompressPlugin()])],
  resolve: {
    // wouter imports the use-sync-external-store shim (for React < 18); React 19 has the hook.
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/lib/use-sync-external-store.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: out,
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    // No <link rel="modulepreload"> added by script for a lazy chunk's imports: at hydration the
    // page's ~30 were appended one by one, 50-90 ms of main thread at Lighthouse's 4x CPU, and
    // Lighthouse's TBT on the ad and search pages went from 122-191 / 90-162 ms to 28-62 / 26-104
    // (LCP unchanged). Written by the server instead, they raced the LCP image (LCP 1.6 -> 2.5 s).
    // The browser fetches a chunk's imports once it has read it (three levels at most).
    modulePreload: false,
    rolldownOptions: {
      // Everything the first paint needs is one file (one request, one gzip dictionary: ~2 KB
      // smaller than the same code split in five); pages, overlays and the dashboard stay lazy.
      output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
  },
  environments: {
    ssr: {
      // One file, React and every dependency inside, in production mode whatever NODE_ENV the
      // server runs with: nothing is read from node_modules or from this directory at run time.
      resolve: { noExternal: true },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir: `${out}/.ssr`,
        emptyOutDir: true,
        ssr: 'src/entry-server.tsx',
        target: 'node22',
        minify: false,
        manifest: false,
        copyPublicDir: false,
        rolldownOptions: { output: { codeSplitting: false, entryFileNames: 'entry-server.js' } },
      },
    },
  },
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client);
      await builder.build(builder.environments.ssr);
    },
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:3000', ws: true }, '/uploads': 'http://127.0.0.1:3000' },
  },
});
