import { useEffect, useState } from 'preact/hooks';
import { PAGES } from '../../src/http/page-paths.js';
import type { Me } from './api.js';
import { mailApi } from './api-mail.js';
import { followLink } from './router.js';

/**
 * For admins, on every page but Mail settings itself: alert email cannot go anywhere (no SMTP server
 * for the workspace, none for the deployment), with a link to the fix. Asked again on leaving the
 * Mail settings page, so a saved server makes it go away.
 */
export const MailBanner = (props: { me: Me; path: string }) => {
  const admin = props.me.user.role === 'admin';
  const onMailPage = props.path === PAGES.mailSettings;
  const [nowhere, setNowhere] = useState(false);
  useEffect(() => {
    if (!admin || onMailPage) return;
    let live = true;
    mailApi.get().then(
      (m) => live && setNowhere(m.transport === 'none'),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [admin, onMailPage]);
  if (!admin || onMailPage || !nowhere) return null;
  return (
    <section class="notice mail-banner" aria-label="Mail not set up">
      <p>
        <strong>Alert email cannot be sent:</strong> no SMTP server is set for this workspace or for this
        Lookout, so every email notification fails.
      </p>
      <a class="button small" href={PAGES.mailSettings} onClick={followLink}>
        Set up mail
      </a>
    </section>
  );
};
