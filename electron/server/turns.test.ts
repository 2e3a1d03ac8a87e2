import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Turns } from './turns';

/** A connected loopback socket pair: what one writes, the other's 'data' gets on the loop's next poll. */
async function socketPair(): Promise<{ a: Socket; b: Socket; close: () => void }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const accepted = once(server, 'connection');
  const a = connect(port, '127.0.0.1');
  await once(a, 'connect');
  const [b] = (await accepted) as [Socket];
  return { a, b, close: () => (a.destroy(), b.destroy(), server.close()) };
}

describe('large bodies take turns', () => {
  it('I/O that becomes ready during one turn is served before the next turn, and turns run in the order taken', async () => {
    const { a, b, close } = await socketPair();
    const order: string[] = [];
    b.on('data', () => order.push('io'));
    const turns = new Turns();
    // Three bodies ready in the same tick, as when they arrive together.
    const jobs = [0, 1, 2].map((i) =>
      turns.take().then(() => {
        order.push(`turn ${i}`);
        // A small request arrives while the first body is handled.
        if (i === 0) a.write('x');
      }),
    );
    await Promise.all(jobs);
    await new Promise((resolve) => setTimeout(resolve, 20));
    close();
    expect(order).toEqual(['turn 0', 'io', 'turn 1', 'turn 2']);
  });

  it('a queue taken again after it emptied still gives turns', async () => {
    const turns = new Turns();
    await turns.take();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const order: number[] = [];
    await Promise.all([turns.take().then(() => order.push(1)), turns.take().then(() => order.push(2))]);
    expect(order).toEqual([1, 2]);
  });
});
