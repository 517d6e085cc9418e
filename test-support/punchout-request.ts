/**
 * The cXML PunchOutSetupRequest of the demo purchasing system (Acme Procure,
 * buyer acme-procure), as it posts to /api/punchout/setup, for any suite
 * that checks a buyer in (the API's punch-out tests, the e2e check-in). Each
 * option replaces one part, to try what the API refuses.
 */
export function punchoutSetupRequest(
  o: {
    secret?: string;
    formPost?: string;
    identity?: string;
    extra?: string;
  } = {},
) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">
<cXML payloadID="1700000000.123@procure.acme.example" timestamp="2026-11-22T10:00:00+09:00" xml:lang="ja-JP">
  <Header>
    <From><Credential domain="NetworkID"><Identity>${o.identity ?? 'acme-procure'}</Identity></Credential></From>
    <To><Credential domain="NetworkID"><Identity>proam-connect</Identity></Credential></To>
    <Sender><Credential domain="NetworkID"><Identity>${o.identity ?? 'acme-procure'}</Identity><SharedSecret>${o.secret ?? 'acme-shared-secret-42'}</SharedSecret></Credential><UserAgent>Acme Procure 3.1</UserAgent></Sender>
  </Header>
  <Request>
    <PunchOutSetupRequest operation="create">
      <BuyerCookie>COOKIE-8f2a&amp;b</BuyerCookie>
      <Extrinsic name="UniqueName">taro.yamada</Extrinsic>
      <Extrinsic name="UserEmail">taro@acme.example</Extrinsic>
      <BrowserFormPost><URL>${o.formPost ?? 'https://procure.acme.example/punchout/return'}</URL></BrowserFormPost>
      <Contact role="endUser"><Name xml:lang="ja">山田 太郎</Name><Email>taro@acme.example</Email></Contact>
      ${o.extra ?? ''}
    </PunchOutSetupRequest>
  </Request>
</cXML>`;
}
