import { useNow } from '@/hooks/use-now';
import { japanLocalInputToIso } from '@/lib/format';
import { validateNews, type NewsValues } from '../news-validation';
import { NewsArticle } from './news-article';

type NewsPreviewProps = {
  values: NewsValues;
  now?: Date;
  /** The time an edited item keeps when its 公開日時 is left empty. */
  keptPublishedAt?: string;
};

/**
 * The article as the public 最新情報 page will show it, updated as the admin
 * types. Text is rendered as text: markup in the body is never interpreted.
 */
export const NewsPreview = ({
  values,
  now,
  keptPublishedAt,
}: NewsPreviewProps) => {
  const nowMs = useNow();
  const publishedAt =
    (values.publishedAt && japanLocalInputToIso(values.publishedAt)) ||
    keptPublishedAt ||
    (now ?? new Date(nowMs)).toISOString();
  // Only an address the server would accept is shown as an image.
  const imageUrl = validateNews(values).imageUrl ? '' : values.imageUrl.trim();
  const empty = values.title.trim() === '' && values.body.trim() === '';
  return (
    <section className="news-preview" aria-labelledby="news-preview-label">
      <h3 id="news-preview-label" className="news-preview__label">
        プレビュー
      </h3>
      <div className="news-preview__page">
        {empty ? (
          <p className="muted">
            タイトルと本文を入力すると、公開ページでの見え方がここに表示されます。
          </p>
        ) : (
          <>
            <p className="news-preview__title">
              {values.title.trim() || '（タイトル未入力）'}
            </p>
            <NewsArticle
              article={{
                title: values.title,
                body: values.body,
                category: values.category.trim(),
                imageUrl,
                publishedAt,
              }}
            />
          </>
        )}
      </div>
    </section>
  );
};
