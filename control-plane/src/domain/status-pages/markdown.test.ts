import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';

describe('post-mortem Markdown', () => {
  it('renders the usual Markdown', () => {
    const html = renderMarkdown(
      '# Cause\n\nA **bad** deploy; see [the log](https://example.com/log).\n\n- one\n- two\n\n`code`',
    );
    expect(html).toContain('<h4>Cause</h4>');
    expect(html).toContain('<strong>bad</strong>');
    expect(html).toContain(
      '<a href="https://example.com/log" rel="nofollow noopener noreferrer">the log</a>',
    );
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code>code</code>');
  });

  it.each([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '![pixel](https://tracker.example/p.gif)',
    '<a href="https://x" onclick="alert(1)">x</a>',
    '<iframe src="https://evil"></iframe>',
    '<style>body{display:none}</style>',
    '[x](<javascript:alert(1)>)',
  ])('lets no raw HTML or unsafe link through: %s', (source) => {
    const html = renderMarkdown(source);
    // Every tag left is one of the safe few; no attribute handler; links only to http(s) and mail.
    for (const [, tag] of html.matchAll(/<\/?([a-z0-9]+)/gi)) expect(['p', 'a']).toContain(tag);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<[^>]*\son\w+=/i);
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(https?:|mailto:)/);
  });
});
