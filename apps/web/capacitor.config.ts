import type { CapacitorConfig } from '@capacitor/cli';

/** The same web build, packaged for iOS and Android (README, Web app). */
const config: CapacitorConfig = {
  appId: 'jp.proamconnect.app',
  appName: 'プロアムコネクト',
  // The native build (`npm run build:native`, with the PROAM_* variables of
  // README.md, Native apps), not the web build in dist/.
  webDir: 'dist-native',
  plugins: {
    // Android draws the app edge to edge (required from Android 15). With
    // `native`, a WebView on Chromium 140 or later follows index.html's
    // viewport-fit=cover and reports the status and navigation bars as
    // env(safe-area-inset-*), which the header, the tab bar and the page
    // margins keep clear of (styles/, e2e/safe-area.spec.ts); an older one
    // is inset natively and reports 0. The hint avoids a first layout
    // without the insets.
    SystemBars: {
      insetsHandling: 'native',
      initialViewportFitValueHint: 'cover',
    },
    SplashScreen: {
      // The seed's splash: shown 1500 ms, hidden by itself.
      launchShowDuration: 1500,
      launchAutoHide: true,
      backgroundColor: '#0f4d32',
      showSpinner: false,
    },
  },
};

export default config;
