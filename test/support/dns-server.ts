import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

/** A DNS server on UDP loopback answering real DNS packets from a fixed zone. Unknown names: NXDOMAIN. */
export type Zone = Record<string, dnsPacket.Answer[]>;

export const startDnsServer = async (zone: Zone) => {
  const socket = createSocket('udp4');
  socket.on('message', (msg, rinfo) => {
    const q = dnsPacket.decode(msg);
    const question = q.questions?.[0];
    const answers = question
      ? (zone[question.name.toLowerCase()] ?? []).filter((a) => a.type === question.type)
      : [];
    const known = question ? zone[question.name.toLowerCase()] !== undefined : false;
    const reply = dnsPacket.encode({
      type: 'response',
      id: q.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3 = NXDOMAIN
      questions: q.questions,
      answers,
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const { port } = socket.address() as AddressInfo;
  return {
    port,
    address: `127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
};
