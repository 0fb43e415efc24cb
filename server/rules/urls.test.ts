import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isSecureOrLoopbackUrl } from './urls.ts';

describe('isSecureOrLoopbackUrl', () => {
  it.each([
    'https://id.example',
    'https://id.example/',
    'https://id.example:8443/realms/svc',
    'http://localhost:8789',
    'http://LOCALHOST',
    'http://127.0.0.1:8789',
    'http://127.1.2.3',
    'http://127.1',
    'http://[::1]:8789',
    'http://[0:0:0:0:0:0:0:1]',
  ])('accepts %s', (url) => expect(isSecureOrLoopbackUrl(url)).toBe(true));

  it.each([
    'http://id.example',
    'http://128.0.0.1',
    'http://10.0.0.1',
    'http://0.0.0.0',
    'http://[::]',
    'http://[::ffff:127.0.0.1]',
    'http://localhost.id.example',
    'http://127.0.0.1.id.example',
    'ftp://localhost',
    'file:///etc/passwd',
    'id.example',
    '',
  ])('refuses %j', (url) => expect(isSecureOrLoopbackUrl(url)).toBe(false));
});

describe('isLoopbackHost', () => {
  it('knows localhost, 127.0.0.0/8 and ::1 as the URL parser spells them, and nothing else', () => {
    expect(['localhost', '127.0.0.1', '127.255.255.254', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['::1', '127.example', '1.127.0.0', 'localhost.'].map(isLoopbackHost)).toEqual([false, false, false, false]);
  });
});
