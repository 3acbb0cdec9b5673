import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretBox } from '@lookout/shared';
import type { PingKeyRecord, PingKeyStore } from './ping-key-store.js';

/**
 * A workspace's ping key: the secret part of slug ping URLs (`/hb/ping/{ping_key}/{slug}`). 128 random
 * bits as 22 base64url characters (never the shape of a uuid, so the two URL forms cannot be confused).
 * Stored twice (docs/decisions.md, "Heartbeats"): as its SHA-256, which a ping is looked up by (an
 * index, then a constant-time comparison of the digests), and sealed with the deployment's secret box,
 * because admins must be shown it again to write crontab lines. The plain key is never logged.
 */
export const PING_KEY = /^[A-Za-z0-9_-]{22}$/;

export const pingKeyHash = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

const context = (workspaceId: string) => `ping_key:${workspaceId}`;

const newRecord = (box: SecretBox, workspaceId: string, now: Date): PingKeyRecord => {
  const key = randomBytes(16).toString('base64url');
  return {
    workspace_id: workspaceId,
    key_hash: pingKeyHash(key),
    key_sealed: box.seal(key, context(workspaceId)),
    created_at: now,
  };
};

const shown = (box: SecretBox, r: PingKeyRecord) => ({
  ping_key: box.open(r.key_sealed, context(r.workspace_id)),
  created_at: r.created_at,
});

/** The workspace's ping key in plain, made on first use. */
export const showPingKey = async (store: PingKeyStore, box: SecretBox, workspaceId: string, now: Date) => {
  const r =
    (await store.getPingKey(workspaceId)) ?? (await store.createPingKey(newRecord(box, workspaceId, now)));
  return shown(box, r);
};

/** A new ping key for the workspace; slug URLs with the old one answer 404 from now on. */
export const regeneratePingKey = async (
  store: PingKeyStore,
  box: SecretBox,
  workspaceId: string,
  now: Date,
) => {
  const r = newRecord(box, workspaceId, now);
  await store.replacePingKey(r);
  return shown(box, r);
};

/** The workspace a ping key belongs to, or null. */
export const workspaceOfPingKey = async (
  store: Pick<PingKeyStore, 'findPingKey'>,
  key: string,
): Promise<string | null> => {
  if (!PING_KEY.test(key)) return null;
  const hash = pingKeyHash(key);
  const r = await store.findPingKey(hash);
  if (!r) return null;
  return timingSafeEqual(Buffer.from(r.key_hash, 'hex'), Buffer.from(hash, 'hex')) ? r.workspace_id : null;
};
