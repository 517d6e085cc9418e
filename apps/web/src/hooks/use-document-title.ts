import { useEffect } from 'react';
import { SITE_NAME } from '@/config/env';

/** `会社概要` → `会社概要 | ProAm Connect`; no title gives the site's own. */
export const documentTitle = (title: string | null): string =>
  title
    ? `${title} | ${SITE_NAME}`
    : `${SITE_NAME} | プロとアマチュアをつなぐゴルフマッチング`;

let prerenderSink: ((title: string) => void) | null = null;

/**
 * While src/prerender.tsx renders a page for index.html, it learns the
 * page's title here (effects do not run there), so the page's HTML comes
 * with its title (public/deep-link.js sets it). Null otherwise.
 */
export const setPrerenderTitleSink = (
  sink: ((title: string) => void) | null,
): void => {
  prerenderSink = sink;
};

export const useDocumentTitle = (title: string | null): void => {
  prerenderSink?.(documentTitle(title));
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
};
