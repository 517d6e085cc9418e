import { Link, useParams } from 'react-router';
import { NoticeCard } from '@/components/notice-card';
import { Breadcrumb } from '@/components/page-header';
import { NO_MORE_INFO, findCampaign } from '@/features/campaigns/campaigns';
import { useDocumentTitle } from '@/hooks/use-document-title';

const CampaignDetailsRoute = () => {
  const { id } = useParams();
  const campaign = findCampaign(id);
  const banner = campaign?.banner;
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
        <div className="button-row">
          <Link to="/" className="button button--outline">
            トップページへ戻る
          </Link>
        </div>
      </div>
    </>
  );
};

export default CampaignDetailsRoute;
