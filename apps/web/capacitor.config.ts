import type { CapacitorConfig } from '@capacitor/cli';

/** The same web build, packaged for iOS and Android (README, Web app). */
const config: CapacitorConfig = {
  appId: 'jp.proamconnect.app',
  appName: 'プロアムコネクト',
  // The native build (`npm run build:native`, with the PROAM_* variables of
  // README.md, Native apps), not the web build in dist/.
  webDir: 'dist-native',
  plugins: {
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
