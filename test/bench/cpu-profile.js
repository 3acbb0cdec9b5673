// `npm run bench -- system --cpu-prof` preloads this into every Lookout process (NODE_OPTIONS=--import,
// which the local agents inherit from the control plane). It does what `node --cpu-prof` does: sample
// from start to exit and write a .cpuprofile (open it in Chrome DevTools or speedscope). `--cpu-prof`
// itself cannot be used: Node 20 refuses it in NODE_OPTIONS, and the control plane starts its local
// agents without its own node flags. The profile is written on a normal exit (the SIGTERM drain ends
// in process.exit), not on SIGKILL.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.LOOKOUT_BENCH_PROF_DIR;
if (dir) {
  const region = process.env.LOOKOUT_AGENT_REGION;
  const name = `${region ? `agent-${region}` : 'control-plane'}.${process.pid}.cpuprofile`;
  const session = new Session();
  session.connect();
  // An in-process session answers synchronously, so the 'exit' handler below can still write.
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 }); // µs, as --cpu-prof
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (err, r) => {
      if (err) process.stderr.write(`cpu profile of ${name}: ${err.message}\n`);
      else writeFileSync(join(dir, name), JSON.stringify(r.profile));
    });
  });
}
