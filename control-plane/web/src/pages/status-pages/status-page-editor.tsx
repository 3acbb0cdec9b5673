import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../../api.js';
import { type StatusPage, type StatusPageBody, statusApi } from '../../api-status.js';
import { Loading } from '../../kit/error-box.js';
import { ErrorSummary } from '../../kit/error-summary.js';
import { type Problems, problemsOf } from '../../kit/field.js';
import { followLink, navigate } from '../../router.js';
import { type ComponentDraft, componentBody, fromStored } from './component-drafts.js';
import { ComponentsFieldset } from './components-fieldset.js';
import { CustomDomainProof } from './custom-domain-proof.js';
import {
  blankSettings,
  type PageSettings,
  PageSettingsFieldset,
  storedSettings,
} from './page-settings-fieldset.js';

/** `/status-pages/new` and `/status-pages/{id}/edit`: the page's settings and its ordered components. */
export const StatusPageEditor = (props: { me: Me; id?: string }) => {
  const editing = props.id !== undefined;
  const [existing, setExisting] = useState<StatusPage | null>(null);
  const [settings, setSettings] = useState<PageSettings>(blankSettings);
  const [components, setComponents] = useState<ComponentDraft[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!props.id) return;
    statusApi.get(props.id).then(
      (p) => {
        setExisting(p);
        setSettings(storedSettings(p));
        setComponents(p.components.map(fromStored));
      },
      (e: Error) => setLoadError(e.message),
    );
  }, [props.id]);

  const title = existing ? `Edit ${existing.name}` : 'New status page';
  if (props.me.user.role === 'viewer')
    return (
      <section class="page">
        <h1>{editing ? 'Edit status page' : 'New status page'}</h1>
        <p class="lead">Viewers read status pages; ask a member or an admin to create or change one.</p>
      </section>
    );
  if (editing && !existing)
    return (
      <section class="page">
        <h1>Edit status page</h1>
        <Loading error={loadError} />
      </section>
    );

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    const s = settings;
    try {
      const body: StatusPageBody = {
        name: s.name,
        slug: s.slug,
        custom_domain: s.domain.trim() || null,
        visibility: s.visibility,
        ...(s.visibility === 'password' && s.password ? { password: s.password } : {}),
        accent_color: s.accent.trim() || null,
        auto_draft_incidents: s.autoDraft,
        components: components.map(componentBody),
      };
      const saved = existing ? await statusApi.update(existing.id, body) : await statusApi.create(body);
      navigate(`/status-pages/${saved.id}`);
    } catch (err) {
      setProblems(problemsOf(err));
      setBusy(false);
    }
  };

  return (
    <section class="page">
      {existing && (
        <p class="crumb">
          <a href={`/status-pages/${existing.id}`} onClick={followLink}>
            ← {existing.name}
          </a>
        </p>
      )}
      <h1>{title}</h1>
      <p class="lead">
        What your customers read: the page’s address, who may open it, and the components it shows, in this
        order.
      </p>
      <form class="panel monitor-form status-page-form" onSubmit={save} noValidate aria-label={title}>
        <ErrorSummary problems={problems} />
        <PageSettingsFieldset
          value={settings}
          onChange={(change) => setSettings((s) => ({ ...s, ...change }))}
          problems={problems}
          keepsPassword={existing?.visibility === 'password'}
        />

        {existing?.custom_domain && existing.custom_domain === settings.domain.trim().toLowerCase() && (
          <CustomDomainProof page={existing} onChecked={setExisting} />
        )}

        <ComponentsFieldset
          components={components}
          setComponents={setComponents}
          problems={problems}
          setProblems={setProblems}
        />

        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy}>
            Save
          </button>
          <a
            class="button"
            href={existing ? `/status-pages/${existing.id}` : '/status-pages'}
            onClick={followLink}
          >
            Cancel
          </a>
        </div>
      </form>
    </section>
  );
};
