import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, type Me, onUnauthorized } from './api.js';
import { Shell } from './layout.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { ChangePasswordPage } from './pages/change-password.js';
import { ConnectedAppsPage } from './pages/connected-apps.js';
import { NotYetPage } from './pages/not-yet.js';
import { SignInPage } from './pages/sign-in.js';
import { navigate, usePath } from './router.js';
import './styles.css';

const HOME = '/settings/api-keys';

/**
 * Where to go after signing in when the server sent the user here (`/sign-in?next=…`): only the
 * OAuth consent step of the hosted MCP connector, a server page, so it is a full navigation.
 */
const serverNext = () => {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/oauth\/interaction\/[\w-]{1,100}$/.test(next) ? next : null;
};

/** Which page a path shows, once signed in. */
const pageFor = (path: string, me: Me) => {
  if (path === '/settings/api-keys') return <ApiKeysPage me={me} />;
  if (path === '/settings/password') return <ChangePasswordPage />;
  if (path === '/settings/connected-apps') return <ConnectedAppsPage />;
  return <NotYetPage path={path} />;
};

const App = () => {
  const path = usePath();
  /** undefined while asking the server; null when signed out. */
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [after, setAfter] = useState<string | null>(null);

  useEffect(() => {
    api.session().then(setMe, () => setMe(null));
    return onUnauthorized(() => setMe(null));
  }, []);

  useEffect(() => {
    if (me === null && path !== '/sign-in') {
      if (path !== '/') setAfter(path);
      navigate('/sign-in', { replace: true });
    } else if (me && (path === '/sign-in' || path === '/' || path === '/settings')) {
      const next = path === '/sign-in' ? serverNext() : null;
      if (next) location.replace(next);
      else navigate(HOME, { replace: true });
    }
  }, [me, path]);

  useEffect(() => {
    const title = me
      ? path === '/settings/password'
        ? 'Password'
        : path === '/settings/connected-apps'
          ? 'Connected apps'
          : 'API keys'
      : 'Sign in';
    document.title = `${title} · Lookout`;
  }, [me, path]);

  if (me === undefined) return <div class="loading" aria-busy="true" />;
  if (me === null)
    return (
      <SignInPage
        onSignedIn={(m) => {
          const next = serverNext();
          if (next) {
            location.assign(next);
            return;
          }
          setMe(m);
          navigate(after ?? HOME, { replace: true });
          setAfter(null);
        }}
      />
    );
  return (
    <Shell me={me} path={path} onSignedOut={() => setMe(null)}>
      {pageFor(path, me)}
    </Shell>
  );
};

render(<App />, document.getElementById('app')!);
