import { useEffect } from 'react';
import { SITE_NAME } from '@/config/env';

/** `会社概要` → `会社概要 | ProAm Connect`; no title gives the site's own. */
export const useDocumentTitle = (title: string | null): void => {
  useEffect(() => {
    document.title = title
      ? `${title} | ${SITE_NAME}`
      : `${SITE_NAME} | プロとアマチュアをつなぐゴルフマッチング`;
  }, [title]);
};
