/** A status page's own settings in the editor: name, slug, custom domain, who may read it, colour, drafts. */
import type { StatusPage, Visibility } from '../../api-status.js';
import { describedBy, Field, FieldNotes, type Problems, TextField } from '../../kit/field.js';

const AUTO_DRAFT_HINT = 'Drafts are shown to nobody until someone publishes them.';

export interface PageSettings {
  name: string;
  slug: string;
  /** Until the author types a slug, it follows the name. */
  slugTyped: boolean;
  domain: string;
  visibility: Visibility;
  password: string;
  accent: string;
  autoDraft: boolean;
}

export const blankSettings = (): PageSettings => ({
  name: '',
  slug: '',
  slugTyped: false,
  domain: '',
  visibility: 'public',
  password: '',
  accent: '',
  autoDraft: false,
});

export const storedSettings = (p: StatusPage): PageSettings => ({
  name: p.name,
  slug: p.slug,
  slugTyped: true,
  domain: p.custom_domain ?? '',
  visibility: p.visibility,
  password: '',
  accent: p.accent_color ?? '',
  autoDraft: p.auto_draft_incidents,
});

/** The slug a name suggests. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

/** The "Page" part of the editor's form; `keepsPassword`: the stored page already has one. */
export const PageSettingsFieldset = (props: {
  value: PageSettings;
  onChange: (change: Partial<PageSettings>) => void;
  problems: Problems;
  keepsPassword: boolean;
}) => {
  const { value: v, onChange: set, problems } = props;
  return (
    <fieldset>
      <legend>Page</legend>
      <div class="grid">
        <TextField
          id="sp-name"
          label="Name"
          problem={problems.name}
          maxLength={200}
          placeholder="Acme status"
          value={v.name}
          onValue={(name) => set({ name, ...(v.slugTyped ? {} : { slug: slugOf(name) }) })}
        />
        <TextField
          id="sp-slug"
          label="Slug"
          problem={problems.slug}
          hint={`The page is at /status/${v.slug || '…'}`}
          maxLength={64}
          placeholder="acme"
          value={v.slug}
          onValue={(slug) => set({ slug, slugTyped: true })}
        />
        <TextField
          id="sp-custom_domain"
          label="Custom domain"
          problem={problems.custom_domain}
          hint="Optional, e.g. status.example.com: served there once its DNS proves it is yours (the record to create shows after Save)."
          placeholder="status.example.com"
          value={v.domain}
          onValue={(domain) => set({ domain })}
        />
        <Field id="sp-visibility" label="Visibility" problem={problems.visibility}>
          {(a) => (
            <select
              {...a}
              value={v.visibility}
              onChange={(e) => set({ visibility: e.currentTarget.value as Visibility })}
            >
              <option value="public">Public: anyone with the address</option>
              <option value="password">Protected by a password</option>
            </select>
          )}
        </Field>
        {v.visibility === 'password' && (
          <TextField
            id="sp-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            problem={problems.password}
            hint={
              props.keepsPassword
                ? 'Leave empty to keep the current one; a new one signs every reader out.'
                : 'At least 8 characters; readers type it once per browser.'
            }
            value={v.password}
            onValue={(password) => set({ password })}
          />
        )}
        <Field
          id="sp-accent_color"
          label="Accent colour"
          problem={problems.accent_color}
          hint="Optional, as #rrggbb."
        >
          {(a) => (
            <div class="colour-input">
              <input
                {...a}
                type="text"
                placeholder="#6d28d9"
                maxLength={7}
                value={v.accent}
                onInput={(e) => set({ accent: e.currentTarget.value })}
              />
              <input
                type="color"
                aria-label="Pick a colour"
                value={/^#[0-9a-fA-F]{6}$/.test(v.accent) ? v.accent : '#1a7f5a'}
                onInput={(e) => set({ accent: e.currentTarget.value })}
              />
            </div>
          )}
        </Field>
      </div>
      <div class="field check">
        <label>
          <input
            type="checkbox"
            checked={v.autoDraft}
            {...describedBy('sp-auto_draft_incidents', problems.auto_draft_incidents, AUTO_DRAFT_HINT)}
            onChange={(e) => set({ autoDraft: e.currentTarget.checked })}
          />{' '}
          Open a draft incident when a linked monitor goes down
        </label>
        <FieldNotes
          id="sp-auto_draft_incidents"
          problem={problems.auto_draft_incidents}
          hint={AUTO_DRAFT_HINT}
        />
      </div>
    </fieldset>
  );
};
