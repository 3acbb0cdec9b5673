// A minimal AgentService for the agent benchmark: hands out N http monitors spread over the target's
// ports (argv[2], comma-separated; N read from stdin lines "monitors <N> <interval s>"), acknowledges
// results without storing them and prints how many it received and how many were successful checks. It isolates the agent's
// own cost from the control plane's ingestion, which `agent.js` measures separately.
// SINK_REPORT=stall: ReportResults never answers (each call ends at the agent's deadline), a control
// plane that has fallen behind (`agent-backlog.js`).
import { createServer } from 'node:http2';
import { create } from '@bufbuild/protobuf';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { AgentService, AssignmentSchema, CheckSpecSchema } from '@lookout/proto';

const ports = process.argv[2].split(',');
let monitors = [];
let changed = () => {};
let received = 0;
let ok = 0;

const assignment = (i, interval) =>
  create(AssignmentSchema, {
    monitorId: `m${i}`,
    version: 1n,
    spec: create(CheckSpecSchema, {
      monitorType: 'http',
      url: `http://127.0.0.1:${ports[i % ports.length]}/`,
      httpMethod: 'GET',
      expectedStatusCode: 200,
      timeoutMs: 5000,
      intervalSeconds: interval,
      // As the control plane sends it: the type's settings, and the first protocol's flat fields.
      settings: { case: 'http', value: { httpMethod: 'GET', expectedStatusCode: 200 } },
    }),
  });

process.stdin.setEncoding('utf8');
process.stdin.on('data', (line) => {
  const m = /monitors (\d+) (\d+)/.exec(line);
  if (!m) return;
  monitors = Array.from({ length: Number(m[1]) }, (_, i) => assignment(i, Number(m[2])));
  changed();
});

const handler = connectNodeAdapter({
  routes: (router) =>
    router.service(AgentService, {
      register: async () => ({
        sessionId: 's',
        epoch: 1n,
        region: 'eu-west',
        serverTimeMs: BigInt(Date.now()),
      }),
      async *watchAssignments(_req, ctx) {
        let sent = new Set();
        for (;;) {
          const now = new Set(monitors.map((a) => a.monitorId));
          const upserts = monitors.filter((a) => !sent.has(a.monitorId));
          // In parts of 1,000, as the control plane sends a sync (rpc/agent-service.ts, SYNC_PART): the
          // agent's stream holds its last message until the next one, and one message of 100,000
          // assignments would keep ~90 MB alive in the agent for as long as the stream stays quiet.
          for (let i = 0, parts = Math.max(1, Math.ceil(upserts.length / 1000)); i < parts; i++) {
            yield {
              event: {
                case: 'sync',
                value: {
                  upserts: upserts.slice(i * 1000, (i + 1) * 1000),
                  removes: i === 0 ? [...sent].filter((id) => !now.has(id)) : [],
                  full: false,
                  more: i < parts - 1,
                },
              },
            };
          }
          sent = now;
          await new Promise((resolve) => {
            changed = resolve;
            ctx.signal.addEventListener('abort', resolve, { once: true });
          });
          if (ctx.signal.aborted) return;
        }
      },
      reportResults: async (req, ctx) => {
        if (process.env.SINK_REPORT === 'stall') {
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          throw ctx.signal.reason;
        }
        received += req.results.length;
        for (const r of req.results) if (r.ok) ok++;
        return { accepted: req.results.length, duplicates: 0, slowDownMs: 0 };
      },
      heartbeat: async () => ({ serverTimeMs: BigInt(Date.now()) }),
    }),
});
const server = createServer(handler);
server.listen(0, '127.0.0.1', () => process.stdout.write(`READY ${server.address().port}\n`));
setInterval(() => process.stdout.write(`RECEIVED ${received} OK ${ok}\n`), 250).unref();
