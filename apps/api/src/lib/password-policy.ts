import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

/** The bundled list of ~49,000 common passwords (zxcvbn-ts), loaded on first use. */
function commonPasswords(): Set<string> {
  common ??= new Set(
    dictionary['passwords-common'].map((p) => p.toLowerCase()),
  );
  return common;
}

const SERVICE_WORDS = [
  'proam',
  'proamconnect',
  'proam-connect',
  'golf',
  'golfer',
  'password',
  'ゴルフ',
  '会員',
];

/**
 * Why a new password is refused, or null. Length is the schema's job (8–128);
 * here: common passwords, the service's own name, and the member's address,
 * also with digits or symbols tacked on (docs/security.md AU-03). No composition rules.
 */
export function weakPasswordReason(
  password: string,
  context: string[] = [],
): string | null {
  const lower = password.toLowerCase();
  const core = lower.replace(/[\d\W_]+$/u, '').replace(/^[\d\W_]+/u, '');
  const list = commonPasswords();
  if (list.has(lower) || (core.length >= 4 && list.has(core))) return 'common';
  const words = [
    ...SERVICE_WORDS,
    ...context.map((c) => c.toLowerCase()).filter((c) => c.length >= 3),
  ];
  if (words.some((w) => lower === w || core === w)) return 'context';
  if (new Set(password).size <= 2) return 'repetitive';
  return null;
}
