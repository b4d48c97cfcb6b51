// Build of the app shell, its workers and the PWA service worker (Workbox via vite-plugin-pwa).
// Everything the app needs offline (JS, CSS, WASM, model files under public/models) is precached.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { build as esbuild } from 'esbuild';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  POLICY_PATHS_COOKIE,
  policyForRequest,
  unpolicedUrl,
} from './workers/shared/worker-policy';

/**
 * Strict CSP for the built app's document: no inline script, no eval, and connections from the
 * UI thread only to its own origin (`connect-src 'self'`). Every network request Sift makes (web
 * providers, page import, LLM endpoints, model downloads) runs in a module worker, and a worker
 * loaded from a URL does not inherit this meta CSP, so this connect-src governs the UI thread
 * only. Each worker runs under its own CSP (workers/shared/worker-policy.ts: its built-in origins
 * and the addresses the user set), served with its script by the service worker and by `vite
 * preview` (the `sift-worker-policy` plugin below), and behind its network gate
 * (workers/shared/net-gate.ts), which keeps the ledger exact (ARCHITECTURE.md "Network: who may
 * connect where").
 */
/**
 * Adds the worker's CSP (by its URL and Sec-Fetch-Dest) to a worker script served by Vite, and
 * serves the files under a worker's policy prefix (its script and imports) from their real path.
 */
function workerPolicyMiddleware(req: IncomingMessage, res: ServerResponse, next: () => void) {
  const dest = req.headers['sec-fetch-dest'];
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  const csp = policyForRequest(url, typeof dest === 'string' ? dest : '');
  if (csp) res.setHeader('Content-Security-Policy', csp);
  // The page learns that this server serves worker policy paths (a static host does not: there
  // the page uses them only once the service worker controls it).
  if (dest === 'document')
    res.setHeader('Set-Cookie', `${POLICY_PATHS_COOKIE}=1; Path=/; SameSite=Strict`);
  const real = unpolicedUrl(url);
  if (real) {
    const u = new URL(real);
    req.url = u.pathname + u.search;
  }
  next();
}

/** The service worker's add-on that serves each worker script with its CSP (importScripts). */
const SW_POLICY_FILE = 'sw-worker-policy.js';

const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export default defineConfig({
  plugins: [
    react(),
    {
      name: 'sift-csp',
      transformIndexHtml: {
        order: 'post',
        handler: (html, ctx) =>
          // The dev server injects inline scripts for HMR; enforce the CSP on the built app only.
          ctx.server
            ? html
            : html.replace(
                '<!--CSP-->',
                `<meta http-equiv="Content-Security-Policy" content="${CSP}" />`,
              ),
      },
    },
    {
      name: 'sift-worker-policy',
      configurePreviewServer: (server) => void server.middlewares.use(workerPolicyMiddleware),
      async generateBundle() {
        const out = await esbuild({
          entryPoints: ['workers/service-worker-policy.ts'],
          bundle: true,
          format: 'iife',
          minify: true,
          write: false,
          target: 'es2022',
        });
        this.emitFile({
          type: 'asset',
          fileName: SW_POLICY_FILE,
          source: out.outputFiles[0]!.text,
        });
      },
    },
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['icons/*.png', 'icons/*.svg'],
      manifest: {
        name: 'Sift — private research and offline search',
        short_name: 'Sift',
        description: 'Import your documents and search them offline. Nothing leaves your device.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#f7f7f5',
        theme_color: '#2f4858',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: '/icons/icon-512-maskable.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      workbox: {
        // First, so each worker script is answered with its CSP before Workbox's routes.
        importScripts: [SW_POLICY_FILE],
        globPatterns: [
          '**/*.{js,mjs,css,html,wasm,png,svg,json,webmanifest,bin,txt}',
          'models/**/*',
        ],
        // The BERT self-test's reference runtime (transformers.js + 27 MB of onnxruntime WASM) is
        // fetched on first use only, then kept for offline use (runtimeCaching below).
        // The pair verifier's bundle (about 23 MB) is fetched by the embed worker on first use and
        // kept in its own Cache Storage entry (workers/verifier/bundle-store.ts), not precached.
        globIgnores: [
          '**/ort-wasm-*.wasm',
          '**/transformers-reference-*.js',
          'models/sift-verifier-*/**',
        ],
        // wa-sqlite and the shipped model shards are several MB each.
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        runtimeCaching: [
          {
            urlPattern: ({ url }) =>
              /\/assets\/(ort-wasm-[^/]*\.wasm|transformers-reference-[^/]*\.js)$/.test(
                url.pathname,
              ),
            handler: 'CacheFirst',
            options: { cacheName: 'sift-reference-runtime', expiration: { maxEntries: 8 } },
          },
        ],
        navigateFallback: '/index.html',
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['@journeyapps/wa-sqlite'] },
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 4096 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
  server: { host: '127.0.0.1', port: 5173 },
});
