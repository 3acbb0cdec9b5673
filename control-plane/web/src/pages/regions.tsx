import { useState } from 'preact/hooks';
import { api, type Region } from '../api.js';
import { ErrorBox } from '../kit/error-box.js';
import { usePoll } from '../poll.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The check types of one agent, or of a region's agents together, as words. */
const typesText = (types: readonly string[]) => (types.length ? types.join(', ') : 'nothing');

/** A region's agents, unnamed (they belong to the operator): whether each reports and what it runs. */
const Agents = (props: { region: Region }) => {
  const { agents, no_capable_agent } = props.region;
  if (agents.length === 0) return <span class="muted">No agent connected</span>;
  return (
    <>
      <ul class="region-agents">
        {agents.map((a, i) => (
          // Agents have no name here; their order is the server's (stable by instance).
          <li key={i}>
            <span class="small muted">
              Agent {i + 1}, {a.healthy ? 'reporting' : 'not reporting'}:
            </span>{' '}
            runs {typesText(a.check_types)}
          </li>
        ))}
      </ul>
      {no_capable_agent.map((u) => (
        <p key={u.monitor_type} class="region-missing small">
          None runs {u.monitor_type} ({plural(u.monitors, 'monitor')} not checked here)
        </p>
      ))}
    </>
  );
};

/** "No agent in eu-west can run ping checks (3 of your monitors)": one line per region and type. */
const uncovered = (regions: Region[]) =>
  regions.flatMap((r) =>
    r.no_capable_agent.map((u) => ({
      key: `${r.region}-${u.monitor_type}`,
      text: `No agent in ${r.region} can run ${u.monitor_type} checks: ${plural(u.monitors, 'monitor')} of yours ${u.monitors === 1 ? 'is' : 'are'} not checked there.`,
    })),
  );

/**
 * `/regions`: the regions monitors may run from, each with its health, how many of the workspace's
 * monitors it checks, and its agents with the check types each can run; a type of the workspace's
 * monitors that no agent of a region can run is said above the table (GET /regions; live).
 */
export const RegionsPage = () => {
  const [regions, setRegions] = useState<Region[] | null>(null);
  const [error, setError] = useState<string | undefined>();
  usePoll(async () => {
    try {
      setRegions((await api.listRegions()).data);
      setError(undefined);
    } catch (e) {
      setError((e as Error).message);
    }
  }, []);
  const problems = regions ? uncovered(regions) : [];
  return (
    <section class="page">
      <h1>Regions</h1>
      <p class="lead">
        The regions your monitors are checked from. The agents of a region run the checks; each runs the check
        types its host allows (ping needs its ICMP program, for example), and a monitor is given only to an
        agent that can run its type.
      </p>
      {problems.length > 0 && (
        <ul class="warning region-problems" aria-label="Monitors no agent can run">
          {problems.map((p) => (
            <li key={p.key}>{p.text}</li>
          ))}
        </ul>
      )}
      <section class="panel flush" aria-labelledby="regions-title" aria-busy={regions === null}>
        <div class="panel-head">
          <h2 id="regions-title">All regions</h2>
        </div>
        <ErrorBox message={error} inset />
        {regions && (
          <table class="keys regions">
            <thead>
              <tr>
                <th scope="col">Region</th>
                <th scope="col">Health</th>
                <th scope="col">Your monitors</th>
                <th scope="col">Agents and the checks they run</th>
              </tr>
            </thead>
            <tbody>
              {regions.map((r) => (
                <tr key={r.region}>
                  <th scope="row" class="key-name">
                    {r.region}
                  </th>
                  <td data-label="Health">
                    <span class={`badge ${r.healthy ? 'status-up' : 'status-down'}`}>
                      <span class="dot" aria-hidden="true" />
                      {r.healthy ? 'Healthy' : 'No agent reporting'}
                    </span>
                  </td>
                  <td data-label="Your monitors">{r.monitors}</td>
                  <td data-label="Agents" class="prose">
                    <Agents region={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </section>
  );
};
