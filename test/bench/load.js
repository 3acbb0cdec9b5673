// Load generator process for the benchmarks (so it can be pinned to its own core):
// node load.js <port> <seconds> <connections> <comma-separated heartbeat ids> → autocannon result as JSON.
import autocannon from 'autocannon';

const [port, seconds, connections, idList] = process.argv.slice(2);
const ids = idList.split(',');
let i = 0;
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: Number(connections),
  duration: Number(seconds),
  requests: [
    { method: 'POST', setupRequest: (req) => ({ ...req, path: `/hb/ping/${ids[i++ % ids.length]}` }) },
  ],
});
process.stdout.write(JSON.stringify(result));
