/**
 * An article body → its paragraphs: a blank line starts a new paragraph, a
 * single line break stays inside one (shown by `white-space: pre-line`).
 * The text is rendered as text, never as HTML.
 */
export const newsParagraphs = (body: string): string[] =>
  body
    .replace(/\r\n?/g, '\n')
    .split(/\n[^\S\n]*\n\s*/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter((p) => p.trim() !== '');
