import { App as NativeApp } from '@capacitor/app';
import { Capacitor } from '@capacitor/core';

/** The Android back button leaves the app only from the top page; elsewhere it goes back. */
export const backButtonAction = (hash: string): 'exit' | 'back' =>
  hash === '' || hash === '#' || hash === '#/' ? 'exit' : 'back';

/** Native-only wiring; the web build never loads this module (see boot/start-app.ts). */
export async function setUpNativeShell(): Promise<void> {
  if (!Capacitor.isNativePlatform()) return;
  await NativeApp.addListener('backButton', () => {
    if (backButtonAction(window.location.hash) === 'exit')
      void NativeApp.exitApp();
    else window.history.back();
  });
}
