import type { Chart as ChartType } from 'chart.js';

/**
 * chart.js is loaded only here, by a dynamic import, and only the admin
 * dashboard calls this: the landing page and the member tabs never fetch it
 * (the build puts it in its own chunk, chart-setup with the parts registered).
 */
let loading: Promise<typeof ChartType> | null = null;

export const loadChart = (): Promise<typeof ChartType> => {
  loading ??= import('./chart-setup')
    .then((m) => m.Chart)
    .catch((err: unknown) => {
      // A failed load (offline) may be tried again on the next visit.
      loading = null;
      throw err;
    });
  return loading;
};
