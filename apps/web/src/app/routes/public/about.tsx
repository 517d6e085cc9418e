import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PageSection } from '@/components/page-section';
import { runtimeConfig } from '@/config/env';
import { useDocumentTitle } from '@/hooks/use-document-title';

const AboutRoute = () => {
  useDocumentTitle('会社概要');
  return (
    <>
      <PageHeader
        section="会社概要"
        title="会社概要"
        titleRight="ABOUT US"
        description="ゴルフを通じて、人と人が出会い、学び合う場をつくる。私たちはプロゴルファーの活躍の場を広げ、アマチュアゴルファーの上達を応援します。"
      />
      <PageSection id="message-title" title="ごあいさつ" narrow>
        <p>
          ゴルフは、年齢や経験を問わず長く楽しめるスポーツです。一方で「プロに教わりたいけれど、どこで誰に頼めばよいか分からない」というアマチュアの声と、「指導の機会をもっと増やしたい」というプロの声が、なかなか結びつかない現実がありました。
        </p>
        <p>
          ProAm Connect
          は、その両者を「ラウンドレッスン」でつなぐサービスです。練習場だけでなく本物のコースで学ぶ体験を、もっと身近なものにしていきます。
        </p>
      </PageSection>
      <PageSection id="company-title" title="会社情報" tinted narrow>
        <div className="table-scroll">
          <table className="data-table company-table">
            <caption className="visually-hidden">会社概要</caption>
            <tbody>
              <tr>
                <th scope="row">会社名</th>
                <td>{runtimeConfig.companyName}</td>
              </tr>
              <tr>
                <th scope="row">所在地</th>
                <td>
                  〒104-0061
                  <br />
                  東京都中央区銀座四丁目 ProAmビル 5階
                </td>
              </tr>
              <tr>
                <th scope="row">設立</th>
                <td>2019年4月1日</td>
              </tr>
              <tr>
                <th scope="row">代表者</th>
                <td>代表取締役 山田 太郎</td>
              </tr>
              <tr>
                <th scope="row">資本金</th>
                <td>1,000万円</td>
              </tr>
              <tr>
                <th scope="row">事業内容</th>
                <td>
                  <ul className="plain-list">
                    <li>
                      プロゴルファーとアマチュアゴルファーのマッチングサービス「ProAm
                      Connect」の企画・運営
                    </li>
                    <li>プロアム大会・ゴルフイベントの企画・運営</li>
                    <li>ゴルフ場・ゴルフ関連企業向けのコンサルティング</li>
                    <li>法人向けゴルフ研修・福利厚生プログラムの提供</li>
                  </ul>
                </td>
              </tr>
              <tr>
                <th scope="row">お問い合わせ</th>
                <td>
                  <Link to="/contact">お問い合わせフォーム</Link>
                  よりご連絡ください（受付：平日10:00〜18:00）
                </td>
              </tr>
            </tbody>
          </table>
        </div>
      </PageSection>
    </>
  );
};

export default AboutRoute;
