// `npm run bench -- system --cpu-prof` preloads this into every Lookout process (NODE_OPTIONS=--import,
// which the local agents inherit from the control plane). It does what `node --cpu-prof` does: sample
// from start to exit and write a .cpuprofile (open it in Chrome DevTools or speedscope). `--cpu-prof`
// itself cannot be used: Node 20 refuses it in NODE_OPTIONS, and the control plane starts its local
// agents without its own node flags. The profile is written on a normal exit (the SIGTERM drain ends
// in process.exit), not on SIGKILL.
// SIGUSR2 cuts the profile: what was sampled so far is written as `<name>.<pid>.part<N>.cpuprofile`
// and sampling starts again, so the bench can keep each step's measurement window in a file of its own.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.LOOKOUT_BENCH_PROF_DIR;
if (dir) {
  const region = process.env.LOOKOUT_AGENT_REGION;
  const base = `${region ? `agent-${region}` : 'control-plane'}.${process.pid}`;
  const session = new Session();
  session.connect();
  // An in-process session answers synchronously, so the 'exit' handler below can still write.
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 }); // µs, as --cpu-prof
  session.post('Profiler.start');
  const write = (name) =>
    session.post('Profiler.stop', (err, r) => {
      if (err) process.stderr.write(`cpu profile of ${name}: ${err.message}\n`);
      else writeFileSync(join(dir, name), JSON.stringify(r.profile));
    });
  let part = 0;
  process.on('SIGUSR2', () => {
    write(`${base}.part${++part}.cpuprofile`);
    session.post('Profiler.start');
  });
  process.on('exit', () => write(`${base}.cpuprofile`));
}
