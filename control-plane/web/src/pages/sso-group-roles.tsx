/** Roles, and the "Groups to roles" editor of Settings → Single sign-on. */

export type Role = 'admin' | 'member' | 'viewer';
export const ROLES: { value: Role; label: string }[] = [
  { value: 'viewer', label: 'Viewer' },
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

export const RoleSelect = (props: {
  id: string;
  value: Role;
  onChange: (r: Role) => void;
  label?: string;
}) => (
  <select
    id={props.id}
    value={props.value}
    aria-label={props.label}
    onChange={(e) => props.onChange(e.currentTarget.value as Role)}
  >
    {ROLES.map((r) => (
      <option key={r.value} value={r.value}>
        {r.label}
      </option>
    ))}
  </select>
);

/** IdP group → role rows: a group name, its role, Remove; Add group. */
export const GroupRolesField = (props: {
  rows: { group: string; role: Role }[];
  problem: string | undefined;
  onChange: (rows: { group: string; role: Role }[]) => void;
}) => (
  <fieldset class="group-roles">
    <legend>Groups to roles</legend>
    <p class="hint tight">
      Applied at every sign-in: the highest role of the user’s groups, or the role of new users when none
      matches.
    </p>
    {props.rows.map((g, i) => (
      <div class="row" key={i}>
        <input
          type="text"
          aria-label={`Group ${i + 1}`}
          value={g.group}
          onInput={(e) => {
            const v = e.currentTarget.value;
            props.onChange(props.rows.map((x, j) => (j === i ? { ...x, group: v } : x)));
          }}
        />
        <RoleSelect
          id={`sso-group-role-${i}`}
          label={`Role of group ${i + 1}`}
          value={g.role}
          onChange={(r) => props.onChange(props.rows.map((x, j) => (j === i ? { ...x, role: r } : x)))}
        />
        <button
          type="button"
          class="button small"
          onClick={() => props.onChange(props.rows.filter((_, j) => j !== i))}
        >
          Remove
        </button>
      </div>
    ))}
    {props.problem && <span class="field-problem">{props.problem}</span>}
    <button
      type="button"
      class="button small"
      onClick={() => props.onChange([...props.rows, { group: '', role: 'member' }])}
    >
      Add group
    </button>
  </fieldset>
);
