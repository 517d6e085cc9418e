import { Link, useParams } from 'react-router';
import { LabelValueTable } from '@/components/label-value-table';
import { NoticeCard } from '@/components/notice-card';
import { Breadcrumb } from '@/components/page-header';
import { NO_MORE_INFO, findCampaign } from '@/features/campaigns/campaigns';
import { useDocumentTitle } from '@/hooks/use-document-title';

const CampaignDetailsRoute = () => {
  const { id } = useParams();
  const campaign = findCampaign(id);
  const banner = campaign?.banner;
  // Its conditions in text, under the banner that shows them as a picture.
  const details = banner && campaign?.details;
  useDocumentTitle('キャンペーン詳細');

  return (
    <>
      {/* The seed gives this page a breadcrumb and deliberately no title block. */}
      <div className="page-header">
        <Breadcrumb items={[{ label: 'キャンペーン詳細' }]} />
      </div>
      <div className="container section">
        <h1 className="visually-hidden">
          {banner && campaign ? campaign.title : 'キャンペーン詳細'}
        </h1>
        {banner ? (
          <figure className="campaign-banner">
            <img
              src={banner.src}
              alt={banner.alt}
              width={banner.width}
              height={banner.height}
            />
          </figure>
        ) : (
          <NoticeCard lead={NO_MORE_INFO} />
        )}
        {details && (
          <section className="section-gap" aria-labelledby="campaign-details">
            <h2 id="campaign-details" className="section__title">
              キャンペーンの内容
            </h2>
            <div className="table-scroll">
              <LabelValueTable
                className="data-table"
                caption="キャンペーンの内容"
                rows={details}
              />
            </div>
            <p className="muted">
              料金は
              <Link to="/amateurmenu">アマチュア会員メニュー</Link>
              を、キャンセルと返金の決まりは
              <Link to="/terms">利用規約</Link>
              第5条をご覧ください。
            </p>
          </section>
        )}
        <div className="button-row">
          {details && (
            <Link to="/auth/register" className="button button--primary">
              無料で会員登録
            </Link>
          )}
          <Link to="/" className="button button--outline">
            トップページへ戻る
          </Link>
        </div>
      </div>
    </>
  );
};

export default CampaignDetailsRoute;
