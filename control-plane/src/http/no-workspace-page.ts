import type { ParameterizedContext } from 'koa';
import type { Workspace } from '../domain/types.js';
import { esc, page } from './oauth/consent-page.js';
import type { ApiState } from './route.js';
import { subdomainOf } from './workspace-host.js';

/**
 * What a browser gets on a host that names no workspace, instead of a sign-in form that can only fail:
 * the service domain itself or an address (`localhost:8080`, `127.0.0.1:8080`), or a subdomain no
 * workspace has. It says so at once and where the workspaces are: on a single-workspace install, a
 * link to that one; with several, the address pattern only, never their names (a bare host must not
 * list who uses the service: docs/decisions.md). Rendered on the server, no script.
 */
export interface NoWorkspaceHere {
  /** The request's Host (or trusted X-Forwarded-Host), port included. */
  host: string;
  serviceDomain: string;
  scheme: string;
  /** The service's only workspace, or null when it has several (or none). */
  only: Workspace | null;
}

/** The page and its status: 404 on an unknown subdomain or away from `/`, 200 for `/` on a bare host. */
export const noWorkspacePage = (p: NoWorkspaceHere & { path: string }) => {
  const name = p.host.trim().toLowerCase().replace(/\.$/, '');
  const port = /:\d{1,5}$/.exec(name)?.[0] ?? '';
  const hostname = name.slice(0, name.length - port.length);
  const sub = hostname.endsWith(`.${p.serviceDomain}`) ? (subdomainOf(name, p.serviceDomain) ?? '') : null;
  const base = `${p.serviceDomain}${port}`;
  const where = p.only
    ? `<p>This Lookout has one workspace, <strong>${esc(p.only.name)}</strong>: <a href="${esc(`${p.scheme}://${p.only.subdomain}.${base}/`)}">${esc(`${p.scheme}://${p.only.subdomain}.${base}/`)}</a></p>`
    : `<p>Each workspace has its own address: <code>${esc(`${p.scheme}://<name>.${base}/`)}</code>, where <code>&lt;name&gt;</code> is the workspace's name in addresses. Ask whoever invited you for yours.</p>`;
  const what =
    sub === null
      ? `<p><code>${esc(name)}</code> is the address of the service itself; you sign in at your workspace's address.</p>`
      : `<p>No workspace is called <code>${esc(sub || hostname)}</code> on this service.</p>`;
  const { html, csp } = page(
    'No workspace at this address',
    `<h1>No workspace at this address.</h1>${what}${where}`,
  );
  return { status: sub === null && p.path === '/' ? 200 : 404, html, csp };
};

/** Answers a page request on a host without a workspace (see noWorkspacePage). */
export const sendNoWorkspacePage = async (
  ctx: ParameterizedContext<ApiState>,
  opts: {
    serviceDomain: string;
    scheme: string;
    host: string | undefined;
    onlyWorkspace: () => Promise<Workspace | null>;
  },
) => {
  const r = noWorkspacePage({
    only: await opts.onlyWorkspace(),
    host: opts.host ?? opts.serviceDomain,
    serviceDomain: opts.serviceDomain,
    scheme: opts.scheme,
    path: ctx.path,
  });
  ctx.status = r.status;
  ctx.type = 'html';
  ctx.set('Content-Security-Policy', r.csp);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = r.html;
};
