import type { CapacitorConfig } from '@capacitor/cli';

/** The same web build, packaged for iOS and Android (README, Web app). */
const config: CapacitorConfig = {
  appId: 'jp.proamconnect.app',
  appName: 'プロアムコネクト',
  // The native build (`npm run build:native`, with the PROAM_* variables of
  // README.md, Native apps), not the web build in dist/.
  webDir: 'dist-native',
  plugins: {
    // Android draws the app edge to edge (required from Android 15): the
    // WebView follows index.html's viewport-fit=cover and reports the status
    // and navigation bars as env(safe-area-inset-*), which the header, the
    // tab bar and the page margins keep clear of (styles/, e2e/safe-area.spec.ts).
    // Older WebViews (Chromium < 140) are inset natively instead. The hint
    // avoids a first layout without the insets.
    SystemBars: {
      insetsHandling: 'css',
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
