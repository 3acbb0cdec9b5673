import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/**
 * Post-mortems are Markdown, rendered by markdown-it with raw HTML off (any HTML in the source comes
 * out as text) and its link check (no javascript:, vbscript:, file: or data: other than images), then
 * passed through sanitize-html with a short list of tags and attributes, so that nothing the author
 * wrote runs or loads anything on the reader's page: no scripts, no styles, no images (a status page
 * makes no third-party requests), links only to http(s) and mail, opened without a referrer.
 */
const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];

export const renderMarkdown = (source: string): string =>
  sanitizeHtml(md.render(source), {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'rel'], ol: ['start'], th: ['style'], td: ['style'] },
    allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'escape',
    transformTags: {
      // The post-mortem sits under its incident's heading: its own headings rank below it.
      h1: 'h4',
      h2: 'h4',
      h3: 'h5',
      h4: 'h6',
      h5: 'h6',
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noopener noreferrer' } }),
    },
  });
