import { XMLParser } from 'fast-xml-parser';
import { newId } from '../lib/ids.js';

/** A refusal in cXML terms: the `<Status>` code, text and detail. */
export class PunchoutError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
    readonly detail: string,
  ) {
    super(text);
  }
}

const badRequest = (detail: string) =>
  new PunchoutError(400, 'Bad Request', detail);

export const xmlEscape = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

function cxml(body: string, now: Date): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.014/cXML.dtd">',
    `<cXML payloadID="${newId()}@proam-connect" timestamp="${now.toISOString()}" xml:lang="ja-JP">`,
    `<Response>${body}</Response>`,
    '</cXML>',
  ].join('\n');
}

/** A cXML answer carrying only a status (refusals). */
export const statusResponse = (error: PunchoutError, now: Date) =>
  cxml(
    `<Status code="${error.code}" text="${xmlEscape(error.text)}">${xmlEscape(error.detail)}</Status>`,
    now,
  );

/** The PunchOutSetupResponse that sends the buyer's user to `startPage`. */
export const setupResponse = (startPage: string, now: Date) =>
  cxml(
    `<Status code="200" text="OK"/><PunchOutSetupResponse><StartPage><URL>${xmlEscape(startPage)}</URL></StartPage></PunchOutSetupResponse>`,
    now,
  );

/**
 * Parses a cXML document without ever resolving external entities: a DOCTYPE
 * with an internal subset or any ENTITY declaration is refused outright
 * (entity expansion, XXE; docs/security.md IV-09), and the external DTD is
 * never fetched.
 */
function parseCxml(xml: string): Record<string, unknown> {
  if (/<!ENTITY/i.test(xml) || /<!DOCTYPE[^>]*\[/i.test(xml))
    throw badRequest('DTD internal subsets and entities are not accepted');
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@',
      processEntities: true,
      htmlEntities: false,
      trimValues: true,
    });
    return parser.parse(xml, true) as Record<string, unknown>;
  } catch {
    throw badRequest('malformed cXML');
  }
}

type Node = Record<string, unknown> | string | undefined;
const at = (node: unknown, ...keys: string[]): Node => {
  let cur: unknown = node;
  for (const k of keys) {
    if (Array.isArray(cur)) cur = cur[0];
    cur =
      cur && typeof cur === 'object'
        ? (cur as Record<string, unknown>)[k]
        : undefined;
  }
  return (Array.isArray(cur) ? cur[0] : cur) as Node;
};
const text = (node: Node): string | undefined => {
  if (typeof node === 'string' || typeof node === 'number')
    return String(node).trim() || undefined;
  if (node && typeof node === 'object' && '#text' in node)
    return String(node['#text']).trim() || undefined;
  return undefined;
};
const list = (v: unknown): unknown[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

/** What a PunchOutSetupRequest asks for, as far as we use it. */
export type SetupRequest<B> = {
  /** The purchasing system, as `authorize` recognised it. */
  buyer: B;
  buyerCookie: string;
  /** Where the buyer's user returns with the order message. */
  returnUrl: URL;
  userRef: string;
  userName: string;
  email: string | undefined;
};

/**
 * Reads a PunchOutSetupRequest document. The sender's credential goes to
 * `authorize` as soon as it is read (it throws a 401 PunchoutError for a
 * stranger), before anything else of the request is looked at. Everything
 * that makes the request unusable (not cXML, a missing cookie, return address
 * or user, an oversized or control-character field) is a 400 PunchoutError.
 */
export function readSetupRequest<B>(
  body: unknown,
  authorize: (identity: string, secret: string) => B,
): SetupRequest<B> {
  if (typeof body !== 'string') throw badRequest('expected a cXML document');
  const root = at(parseCxml(body), 'cXML');
  const sender = at(root, 'Header', 'Sender', 'Credential');
  const buyer = authorize(
    text(at(sender, 'Identity')) ?? '',
    text(at(sender, 'SharedSecret')) ?? '',
  );
  const request = at(root, 'Request', 'PunchOutSetupRequest');
  if (!request || typeof request !== 'object')
    throw badRequest('no PunchOutSetupRequest');
  const buyerCookie = text(at(request, 'BuyerCookie'));
  const formPost = text(at(request, 'BrowserFormPost', 'URL'));
  const extrinsics = new Map(
    list(request.Extrinsic).map((e) => [
      String((e as Record<string, string | number | undefined>)['@name'] ?? ''),
      text(e as Node) ?? '',
    ]),
  );
  const contact = at(request, 'Contact');
  const email = extrinsics.get('UserEmail') || text(at(contact, 'Email'));
  const userRef =
    extrinsics.get('UniqueName') || extrinsics.get('UserId') || email;
  const userName =
    text(at(contact, 'Name')) || extrinsics.get('UserFullName') || userRef;
  if (!buyerCookie || !formPost || !userRef || !userName)
    throw badRequest('BuyerCookie, BrowserFormPost and a user are required');
  let returnUrl: URL;
  try {
    returnUrl = new URL(formPost);
  } catch {
    throw badRequest('BrowserFormPost is not a URL');
  }
  if (
    [buyerCookie, userRef, userName, email ?? ''].some(
      // eslint-disable-next-line no-control-regex -- control characters are what is refused
      (v) => v.length > 254 || /[\u0000-\u001f]/.test(v),
    )
  )
    throw badRequest('a field is too long or malformed');
  return {
    buyer,
    buyerCookie,
    returnUrl,
    userRef,
    userName,
    email,
  };
}
