import { describe, expect, it } from 'vitest';
import { slackText } from './slack.js';

describe('Slack message body', () => {
  it('escapes &, < and > in the subject and the text, and nothing else', () => {
    expect(
      slackText({
        subject: '[Lookout acme] CRITICAL: <!channel> & co',
        text: '<img src=x onerror=alert(1)>\n<https://evil.test|click> "quoted" *bold*',
      }),
    ).toBe(
      '*[Lookout acme] CRITICAL: &lt;!channel&gt; &amp; co*\n&lt;img src=x onerror=alert(1)&gt;\n&lt;https://evil.test|click&gt; "quoted" *bold*',
    );
  });
});
