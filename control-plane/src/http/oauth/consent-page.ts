import { randomBytes } from 'node:crypto';
import type { Role } from '../../domain/types.js';

/**
 * The OAuth consent page (and its error page), rendered on the server: one form, no script. It names
 * the client and says what it may do: act as this user, with this user's role.
 */

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const ROLE_CAN: Record<Role, string> = {
  admin:
    'read and change everything in the workspace that an admin can: monitors, heartbeats, alerts, escalation policies, channels, integrations',
  member:
    'read everything, and create and change monitors and heartbeats, and acknowledge and resolve alerts',
  viewer: 'read monitors, heartbeats, alerts and check results; it cannot change anything',
};

export const STYLE = `body{font:16px/1.5 system-ui,sans-serif;background:#f5f6f8;color:#1c2230;margin:0}
main{max-width:34rem;margin:3rem auto;background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:2rem}
h1{font-size:1.4rem;margin:0 0 1rem}ul{padding-left:1.2rem}.muted{color:#5b6475;font-size:.9rem}
.actions{display:flex;gap:.75rem;margin-top:1.5rem}button{font:inherit;padding:.55rem 1.2rem;border-radius:6px;border:1px solid #b8c0cc;background:#fff;cursor:pointer}
button.primary{background:#2753d8;border-color:#2753d8;color:#fff}button:focus-visible{outline:3px solid #9db4ff;outline-offset:2px}
code{background:#f0f2f5;padding:0 .25rem;border-radius:4px}`;

/** A page with its own CSP: only its nonce'd style, no script, never framed. Other server-rendered pages use it too. */
export const page = (title: string, body: string) => {
  const nonce = randomBytes(16).toString('base64');
  return {
    csp: [
      "default-src 'none'",
      `style-src 'nonce-${nonce}'`,
      "base-uri 'none'",
      "frame-ancestors 'none'",
      // form-action is left out on purpose: after Allow the browser follows redirects to the client's
      // redirect URI, which form-action would block.
    ].join('; '),
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Lookout</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>${body}</main></body></html>`,
  };
};

export const consentPage = (p: {
  clientName: string;
  clientId: string;
  redirectHost: string | null;
  email: string;
  role: Role;
  workspaceName: string;
  resource: string;
  action: string;
  csrf: string;
}) =>
  page(
    `Allow ${p.clientName}?`,
    `<h1>Allow ${esc(p.clientName)} to use Lookout as you?</h1>
<p><strong>${esc(p.clientName)}</strong>${p.redirectHost ? ` (returns to <code>${esc(p.redirectHost)}</code>)` : ''} asks to connect to the workspace <strong>${esc(p.workspaceName)}</strong>.</p>
<p>If you allow it, it may:</p>
<ul>
<li>act as you, <strong>${esc(p.email)}</strong>, with your role, <strong>${esc(p.role)}</strong>: ${esc(ROLE_CAN[p.role])};</li>
<li>do so through Lookout's AI tools at <code>${esc(p.resource)}</code>, until you revoke it in Settings → Connected apps.</li>
</ul>
<p class="muted">It never sees your password. If your role changes, so does what it may do. Client id: <code>${esc(p.clientId)}</code>.</p>
<div class="actions">
<form method="post" action="${esc(p.action)}/confirm"><input type="hidden" name="csrf" value="${esc(p.csrf)}"><button type="submit" class="primary">Allow</button></form>
<form method="post" action="${esc(p.action)}/abort"><input type="hidden" name="csrf" value="${esc(p.csrf)}"><button type="submit">Deny</button></form>
</div>`,
  );

export const problemPage = (title: string, message: string) =>
  page(title, `<h1>${esc(title)}</h1><p role="alert">${esc(message)}</p>`);
