import type { Ping } from '../domain/types.js';

/** One heartbeat update a ping causes; in both adapters (SQLite: named parameters of touchHeartbeatSql). */
export interface PingTouch {
  id: string;
  at: number;
  received: number;
  kind: Ping['kind'];
  rid: string | null;
}

/**
 * What each ping does to its heartbeat, in arrival order; plain successes (no run id) for the same
 * heartbeat with nothing else in between fold into one (the latest time wins, as last_ping_at only
 * moves forward). See touchHeartbeatSql in sqlite/inbound.ts for the rules.
 */
export const pingTouches = (batch: Ping[]): PingTouch[] => {
  const out: PingTouch[] = [];
  const plain = new Map<string, PingTouch>();
  for (const p of batch) {
    const t: PingTouch = {
      id: p.heartbeat_id,
      at: p.at.getTime(),
      received: p.received_at.getTime(),
      kind: p.kind,
      rid: p.rid ?? null,
    };
    const prev = plain.get(p.heartbeat_id);
    if (p.kind === 'success' && !p.rid) {
      if (prev) {
        prev.at = Math.max(prev.at, t.at);
        prev.received = Math.max(prev.received, t.received);
        continue;
      }
      plain.set(p.heartbeat_id, t);
    } else plain.delete(p.heartbeat_id);
    out.push(t);
  }
  return out;
};
