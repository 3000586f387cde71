// How the server takes new connections (server/plugins/connections.ts, listen): where Node can
// share a port, several sockets listen on it and connections that arrive while the event loop is
// busy are accepted several per turn; every one of them is held to the server's limits; a port
// another process holds is refused; closing the app closes every socket. CI runs this file on
// Node 24 too, where the port is shared (Node 20 accepts one connection per turn).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canSharePort, listen } from '../../../server/plugins/connections';
import { rawRequest as raw } from '../support/api-helpers';
import { DATABASE_KINDS, startApp, type TestApp } from '../support/harness';

const kind = DATABASE_KINDS[0]!;
const limits = { headersTimeoutSeconds: 2, requestTimeoutSeconds: 2, maxPerAddress: 0, listenSockets: 8, minBodyBytesPerSecond: 0, bodyGraceSeconds: 10 };

/** A health check the server answers and then closes the connection on. */
const HEALTHZ = 'GET /healthz HTTP/1.1\r\nHost: demo.localhost\r\nConnection: close\r\n\r\n';
const portOf = (t: TestApp) => (t.app.server.address() as { port: number }).port;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe(`listening on ${kind}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(kind, { connections: limits });
    await listen(t.app, limits, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t?.close());

  it('accepts connections that arrived while the loop was busy several per turn, and answers each', async () => {
    let accepted = 0;
    const count = () => accepted++;
    t.app.server.on('connection', count);
    const burst = 64;
    const clients = Array.from({ length: burst }, () => raw(portOf(t), HEALTHZ));
    // The connections are made (Node starts them on the next tick), then the loop is held: they
    // all wait in the kernel's queues, as under load.
    await new Promise<void>((resolve) => process.nextTick(resolve));
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // busy, as a loaded server's turn is
    }
    let turns = 0;
    while (accepted < burst && turns < 4 * burst) {
      await nextTurn();
      turns++;
    }
    t.app.server.off('connection', count);
    const answers = await Promise.all(clients.map((c) => c.answer));
    expect(answers.filter((a) => a.startsWith('HTTP/1.1 200'))).toHaveLength(burst);
    if (canSharePort()) {
      // Eight sockets, each accepting one per turn: the kernel spreads the burst over them.
      expect(turns).toBeLessThanOrEqual(burst / 2);
    } else {
      // One socket: one connection per turn.
      expect(turns).toBeGreaterThanOrEqual(burst);
    }
  });

  it('holds connections taken by any of the sockets to the server limits: headers not sent in time are cut with 408', async () => {
    const held = Array.from({ length: 12 }, () => raw(portOf(t), 'GET /healthz HTTP/1.1\r\nHost: demo.localhost\r\n'));
    const answers = await Promise.all(held.map((h) => h.answer));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses a port another server already listens on, even one sharing its own, instead of splitting its connections', async () => {
    const port = portOf(t);
    const second = await startApp(kind, { connections: limits });
    try {
      await expect(listen(second.app, limits, { port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      // The first server still takes every connection.
      let reached = 0;
      const count = () => reached++;
      t.app.server.on('connection', count);
      const answers = await Promise.all(Array.from({ length: 16 }, () => raw(port, HEALTHZ).answer));
      t.app.server.off('connection', count);
      expect(reached).toBe(16);
      expect(answers.filter((a) => a.startsWith('HTTP/1.1 200'))).toHaveLength(16);
    } finally {
      await second.close();
    }
  });

  it('stops every socket when the app closes: no connection is taken afterwards', async () => {
    const app = await startApp(kind, { connections: limits });
    await listen(app.app, limits, { port: 0, host: '127.0.0.1' });
    const port = portOf(app);
    await app.close();
    const answers = await Promise.all(Array.from({ length: 32 }, () => raw(port, HEALTHZ).answer));
    expect(answers.every((a) => a === 'ECONNREFUSED')).toBe(true);
  });
});

describe('which Node shares a port between sockets', () => {
  it('Node 22.12 and later on 22, 23.1 and later on 23, every 24 and later, on Linux only', () => {
    const shares = ['22.12.0', '22.23.3', '23.1.0', '24.0.0', '25.2.1'];
    const not = ['20.20.2', '22.11.0', '23.0.0', '21.7.3'];
    expect(shares.filter((v) => canSharePort(v, 'linux'))).toEqual(shares);
    expect(not.filter((v) => canSharePort(v, 'linux'))).toEqual([]);
    expect(canSharePort('24.21.0', 'darwin')).toBe(false);
  });
});
