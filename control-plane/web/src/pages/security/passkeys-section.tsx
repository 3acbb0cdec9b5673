import type { Me } from '../../api.js';

/** The passkeys part of `/settings/security`: a placeholder the passkeys work fills (Add a passkey, list, remove). */
export const PasskeysSection = (_props: { me: Me; onChanged: () => void }) => (
  <section class="panel" aria-labelledby="passkeys-heading">
    <h2 id="passkeys-heading">Passkeys</h2>
  </section>
);
