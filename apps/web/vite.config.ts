import { fileURLToPath, URL } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { prerenderPages } from './vite-plugins/prerender';
import { startChunks } from './vite-plugins/start-chunks';
import { readNativeBuildEnv } from './src/config/native-build';

const apiTarget = 'http://127.0.0.1:3000';

/**
 * `vite build --mode native` (npm run build:native, cap:sync) builds for the
 * Capacitor shell: the API origin, the clients and the Stripe key come from
 * PROAM_* variables (src/config/native-build.ts) and are baked in, since the
 * shell never receives the server's meta config. Every other mode is the web
 * build, which reads the meta tag the server fills.
 */
/**
 * React Router 7's export map names only its development build (its
 * ENABLE_DEV_WARNINGS on, route checks included); the production build ships
 * beside it, and the next major's map picks it unless the `development`
 * condition is set (remix-run/react-router#12437, #14753). The app's builds
 * take it the same way, the build's prerender (vite-plugins/prerender.ts, a
 * loader in the build's mode) included, so the HTML and the code that
 * hydrates it come from one build; the dev server and the tests keep the
 * development build.
 */
const reactRouterProduction = (specifier: string, file: string) => ({
  find: new RegExp(`^${specifier}$`),
  replacement: fileURLToPath(
    new URL(
      `../../node_modules/react-router/dist/production/${file}`,
      import.meta.url,
    ),
  ),
});

export default defineConfig(({ mode }) => {
  const native = mode === 'native' ? readNativeBuildEnv(process.env) : null;
  return {
    define: {
      // The only way the native settings reach the app (src/config/env.ts).
      'import.meta.env.PROAM_NATIVE_CONFIG': JSON.stringify(native),
    },
    plugins: [
      react(),
      // Before VitePWA, which lists the written files for the service worker.
      prerenderPages(),
      startChunks(),
      VitePWA({
        // The shell serves its files from the device: no service worker there.
        disable: native !== null,
        // No inline registration script (CSP script-src 'self'): src/pwa/register.ts registers.
        injectRegister: null,
        registerType: 'prompt',
        includeAssets: ['favicon.svg', 'robots.txt'],
        manifest: {
          id: '/',
          name: 'ProAm Connect（プロアムコネクト）',
          short_name: 'ProAm',
          description:
            'プロゴルファーとアマチュアゴルファーをつなぐ会員制ゴルフマッチングサービス',
          lang: 'ja',
          dir: 'ltr',
          start_url: '/',
          scope: '/',
          display: 'standalone',
          theme_color: '#0f4d32',
          background_color: '#ffffff',
          icons: [
            { src: '/pwa-192.png', sizes: '192x192', type: 'image/png' },
            { src: '/pwa-512.png', sizes: '512x512', type: 'image/png' },
            {
              src: '/pwa-512.png',
              sizes: '512x512',
              type: 'image/png',
              purpose: 'maskable',
            },
          ],
        },
        workbox: {
          // The app shell: the page, its code and styles, the icons.
          globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
          // chart.js (60 KB gzip) serves only the admins' dashboard: fetched
          // when opened, not pre-cached for every visitor.
          globIgnores: ['**/assets/chart-setup-*.js'],
          navigateFallback: '/index.html',
          navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
          cleanupOutdatedCaches: true,
        },
      }),
    ],
    resolve: {
      // @aparajita/capacitor-secure-storage declares @capacitor/core as a
      // dependency and gets its own copy; one copy keeps one plugin registry.
      dedupe: ['@capacitor/core'],
      // Resolve @proam/contract to its TypeScript source so no prior build is needed.
      conditions: ['source', 'module', 'browser', 'development|production'],
      alias: [
        {
          find: '@',
          replacement: fileURLToPath(new URL('./src', import.meta.url)),
        },
        ...(mode !== 'development' && mode !== 'test'
          ? [
              reactRouterProduction('react-router', 'index.mjs'),
              reactRouterProduction('react-router/dom', 'dom-export.mjs'),
            ]
          : []),
      ],
    },
    build: {
      // Its own folder (capacitor.config.ts webDir), so a native build never
      // replaces the web build that `npm start` serves.
      outDir: native ? 'dist-native' : 'dist',
      target: 'es2022',
      rolldownOptions: {
        output: {
          // Start-up code in a few chunks, one per step of src/boot/start-app.ts,
          // so the browser makes a handful of requests instead of thirty small ones.
          codeSplitting: {
            groups: [
              {
                // What the entry itself needs (the static landing page and the
                // first step of starting the app), so no step's chunk is pulled
                // in statically.
                name: 'boot',
                test: /[\\/]src[\\/](boot[\\/](static-landing|start-app)|app[\\/]route-(table|match)|components[\\/]splash|config[\\/](env|native-build)|features[\\/]auth[\\/]token-storage|pwa[\\/]update-events)\.ts$|vite\/preload-helper/,
                priority: 50,
              },
              {
                name: 'react',
                test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/,
                priority: 30,
              },
              {
                name: 'state',
                test: /[\\/]src[\\/](app[\\/]store\.ts|features[\\/]auth[\\/]auth-session\.ts)$/,
                includeDependenciesRecursively: true,
                priority: 20,
              },
              {
                name: 'shell',
                test: /[\\/]src[\\/]app[\\/](app|router)\.tsx$/,
                includeDependenciesRecursively: true,
                priority: 10,
              },
              {
                // The landing page with the parts it shares with other public pages.
                name: 'landing',
                test: /[\\/]src[\\/]app[\\/]routes[\\/]public[\\/]landing\.tsx$/,
                includeDependenciesRecursively: true,
                priority: 5,
              },
            ],
          },
        },
      },
      // The server's CSP may not allow data: images; emit every asset as a file.
      assetsInlineLimit: 0,
    },
    server: {
      proxy: {
        '/api': { target: apiTarget, changeOrigin: false },
        '/media': { target: apiTarget, changeOrigin: false },
      },
    },
    preview: {
      proxy: {
        '/api': { target: apiTarget, changeOrigin: false },
        '/media': { target: apiTarget, changeOrigin: false },
      },
    },
  };
});
