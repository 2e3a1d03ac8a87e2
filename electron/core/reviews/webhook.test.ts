import { describe, expect, it } from 'vitest';
import { checkWebhook, deliver } from './webhook';

const secret = 'x'.repeat(20);

describe('webhook URLs', () => {
  it('are refused for this machine and private addresses in any form, with one message, before anything is sent', async () => {
    for (const host of [
      'localhost',
      'api.localhost',
      '127.0.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '2130706433',
      '0x7f000001',
      '127.1',
      '10.0.0.7',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '[fd00::1]',
    ]) {
      expect(() => checkWebhook({ url: `https://${host}/hook`, secret }, 'cascade.webhook', {}), host).toThrow(
        'cascade.webhook.url: the host is not a public internet address; webhooks are not sent there',
      );
    }
    expect(checkWebhook({ url: 'https://hooks.example.com/reviews', secret }, 'w', {})).toEqual({ url: 'https://hooks.example.com/reviews', secret });
    expect(() => checkWebhook({ url: 'https://hooks.example.com/reviews', secret, extra: 1 }, 'w', {})).toThrow(
      'w.extra: unknown property "extra" is not allowed here',
    );
  });

  it('are checked again when sent: a name that resolves to a private address gets nothing', async () => {
    // No listener is needed: the address is refused before any connection.
    expect(await deliver({ url: 'https://hooks.example.com/reviews', secret }, '{}', Date.now(), { lookup: async () => ['127.0.0.1'] })).toBe(false);
    expect(await deliver({ url: 'https://hooks.example.com/reviews', secret }, '{}', Date.now(), { lookup: async () => ['93.184.216.34', '10.1.2.3'] })).toBe(
      false,
    );
  });
});
