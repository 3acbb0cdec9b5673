/** Who a schedule page may name: everyone in the workspace (GET /people, any role). */
import { useEffect, useState } from 'preact/hooks';
import { api, type Me } from '../../api.js';
import { type Gap, type ScheduleInput, type Shift, schedulesApi, type UserRef } from '../../api-schedules.js';
import { readAll } from '../../kit/paging.js';
import type { TimelineRow } from './timeline.js';

export const useWorkspaceUsers = (me: Me) => {
  const [users, setUsers] = useState<UserRef[]>([{ id: me.user.id, email: me.user.email }]);
  useEffect(() => {
    readAll((c) => api.listPeople(c)).then(setUsers, () => {});
  }, [me.user.id]);
  return users;
};

/** The users named in shifts, added to `known` (by id, first spelling kept). */
export const withNamed = (known: UserRef[], shifts: Shift[]) => {
  const out = [...known];
  for (const s of shifts) if (!out.some((u) => u.id === s.user.id)) out.push(s.user);
  return out;
};

/**
 * The timeline's rows for a schedule body: each layer alone (what its rotation gives, before later
 * layers and overrides), the overrides, and the final shifts (`schedule_id`'s overrides applied).
 */
export const previewRows = async (
  body: ScheduleInput,
  scheduleId?: string,
): Promise<{ rows: TimelineRow[]; gaps: Gap[]; final: Shift[] }> => {
  const whole = schedulesApi.preview({ ...body, ...(scheduleId ? { schedule_id: scheduleId } : {}) });
  const layers = body.layers.map((l) =>
    schedulesApi.preview({ ...body, layers: [l] }).then(
      (p) => p.data,
      () => [] as Shift[],
    ),
  );
  const [final, ...each] = await Promise.all([whole, ...layers]);
  return {
    final: final.data,
    gaps: final.gaps,
    rows: rowsOf(
      body.layers.map((l, i) => ({ name: l.name || `Layer ${i + 1}`, shifts: each[i] ?? [] })),
      final.data,
    ),
  };
};

/** The rows from each layer's shifts and the final ones (the overrides row only when there are some). */
export const rowsOf = (layers: { name: string; shifts: Shift[] }[], final: Shift[]): TimelineRow[] => {
  const overrides = final.filter((s) => s.source.kind === 'override');
  return [
    ...layers.map((l, i) => ({ label: `${i + 1}. ${l.name}`, shifts: l.shifts })),
    ...(overrides.length ? [{ label: 'Overrides', shifts: overrides }] : []),
    { label: 'On call', shifts: final, final: true },
  ];
};

/** Without a preview (a viewer may not ask for one): each layer's row is where it wins in the final shifts. */
export const rowsFromFinal = (layerNames: string[], final: Shift[]) =>
  rowsOf(
    layerNames.map((name, i) => ({
      name,
      shifts: final.filter((s) => s.source.kind === 'layer' && s.source.layer === i + 1),
    })),
    final,
  );
