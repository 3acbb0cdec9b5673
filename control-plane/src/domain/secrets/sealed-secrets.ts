import type { SecretBox } from '@lookout/shared';
import type { Monitor } from '../types.js';

/** A workspace secret's name: upper case, digits and `_`, starting with a letter (as in `{{secrets.NAME}}`). */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The associated data a secret's value is sealed with: its workspace and name. */
export const secretContext = (workspaceId: string, name: string) => `workspace-secret:${workspaceId}:${name}`;

/**
 * The workspace secrets a scripted monitor names, opened for its agent. A monitor keeps a copy of each
 * sealed value it names in `settings.sealed_secrets` (written when the monitor is saved and again when
 * the secret changes, which bumps the monitor's version), so building its assignment needs no lookup.
 */
export const openSecrets = (
  box: SecretBox,
  m: Pick<Monitor, 'workspace_id' | 'settings'>,
): Record<string, string> => {
  const sealed = (m.settings.sealed_secrets ?? {}) as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sealed))
    out[name] = box.open(value, secretContext(m.workspace_id, name));
  return out;
};
