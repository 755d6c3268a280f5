import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor } from '../../src/core/redact.js';
import { activeRedactor, registerSecret, withSecretScope } from '../../src/core/secret-scope.js';
import { createLogger } from '../../src/core/logger.js';

const KEY = 'Zr4qW9kTn2XbLm7vPc3HdJ8sFy5GaE6u';
const redactor = new Redactor([KEY]);
const r = (text: string): string => redactor.redact(text);
const percent = (text: string, upper = true): string =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16)[upper ? 'toUpperCase' : 'toLowerCase']()}`).join('');
const unicode = (text: string): string => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('Redactor: the key and every piece of 6 or more characters', () => {
  test.each([
    ['the whole key', `key ${KEY} rejected`, `key ${REDACTED} rejected`],
    ['its first 10 characters (a cut-off echo)', `token "${KEY.slice(0, 10)}"...`, `token "${REDACTED}"...`],
    ['a 6-character piece from the middle', `x${KEY.slice(13, 19)}y`, `x${REDACTED}y`],
    ['its last 6 characters', `…${KEY.slice(-6)}`, `…${REDACTED}`],
    ['in another letter case', `KEY=${KEY.toUpperCase()}`, `KEY=${REDACTED}`],
    ['two pieces one after the other, as one', `${KEY.slice(0, 8)}${KEY.slice(20, 28)}!`, `${REDACTED}!`],
    ['in a query string', `GET /x?api_key=${KEY}&limit=5`, `GET /x?api_key=${REDACTED}&limit=5`],
    ['percent-encoded (upper-case hex)', `/x?api_key=${percent(KEY)}`, `/x?api_key=${REDACTED}`],
    ['percent-encoded (lower-case hex), a piece', `k=${percent(KEY.slice(3, 12), false)};`, `k=${REDACTED};`],
    ['percent-encoded twice', `k=${percent(KEY).replaceAll('%', '%25')}`, `k=${REDACTED}`],
    ['\\u-escaped in JSON', `{"error":"${unicode(KEY.slice(0, 9))}"}`, `{"error":"${REDACTED}"}`],
    ['escaped twice in JSON inside JSON', `{"raw":"${unicode(KEY).replaceAll('\\', '\\\\')}"}`, `{"raw":"${REDACTED}"}`],
    ['partly escaped', `${KEY.slice(0, 4)}${percent(KEY.slice(4, 8))}${unicode(KEY.slice(8, 12))}`, REDACTED],
    ['HTML character references', `<b>${[...KEY.slice(0, 7)].map((c) => `&#${c.charCodeAt(0)};`).join('')}</b>`, `<b>${REDACTED}</b>`],
  ])('%s', (_name, text, expected) => {
    expect(r(text)).toBe(expected);
  });

  test.each([
    ['5 characters of the key', `a${KEY.slice(0, 5)}b`],
    ['our own words', 'chain-etl: GET /api/v3/transactions failed after 9 attempts: HTTP 503'],
    ['an empty text', ''],
  ])('leaves alone %s', (_name, text) => {
    expect(r(text)).toBe(text);
    expect(redactor.reveals(text)).toBe(false);
  });

  test('no 6-character piece of the key survives anywhere in a text made of its pieces', () => {
    const text = Array.from({ length: KEY.length - 5 }, (_, i) => `<${KEY.slice(i, i + 6)}>`).join(' ');
    const out = r(text);
    for (let i = 0; i + 6 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 6));
    expect(out).toBe(Array.from({ length: KEY.length - 5 }, () => `<${REDACTED}>`).join(' '));
  });

  test('a key shorter than 6 characters is redacted whole only', () => {
    const short = new Redactor(['abc12']);
    expect(short.redact('x abc12 y abc1')).toBe(`x ${REDACTED} y abc1`);
  });

  test('no secret, nothing changes', () => {
    expect(new Redactor([undefined, '', '  ']).redact(`${KEY}`)).toBe(KEY);
  });

  test('the V8 message of malformed JSON echoing the key shows no piece of it', () => {
    let message = '';
    try {
      JSON.parse(`{"k":${KEY}}`);
    } catch (error) {
      message = String(error);
    }
    expect(message).toContain(KEY.slice(0, 6));
    expect(r(message)).not.toMatch(new RegExp(KEY.slice(0, 6), 'i'));
  });

  test('redactValue: strings and keys of parsed JSON, numbers and shape kept', () => {
    const value = { hash: 5, note: `k ${KEY}`, [KEY]: [{ url: `/?api_key=${percent(KEY)}` }, 7, null] };
    expect(redactor.redactValue(value)).toEqual({ hash: 5, note: `k ${REDACTED}`, [REDACTED]: [{ url: `/?api_key=${REDACTED}` }, 7, null] });
  });

  test('redactError: a copy with message, stack and causes redacted; an error without the key is kept as it is', () => {
    const clean = new Error('nothing here');
    expect(redactor.redactError(clean)).toBe(clean);
    const err = Object.assign(new Error(`bad ${KEY.slice(0, 12)}`, { cause: new Error(`inner ${KEY}`) }), { code: 'E_X' });
    const copy = redactor.redactError(err) as Error & { code: string };
    expect(copy.message).toBe(`bad ${REDACTED}`);
    expect((copy.cause as Error).message).toBe(`inner ${REDACTED}`);
    expect(copy.code).toBe('E_X');
    expect(copy.stack).not.toContain(KEY.slice(0, 12));
  });
});

describe('secret scope', () => {
  test('a secret registered inside a scope is redacted there and only there', async () => {
    const inside = await withSecretScope(async () => {
      await Promise.resolve();
      registerSecret(KEY);
      return activeRedactor().redact(KEY);
    });
    expect(inside).toBe(REDACTED);
    expect(activeRedactor().redact(KEY)).toBe(KEY);
  });

  test('two scopes running at once keep their secrets apart', async () => {
    const other = 'Qm8vX2cRt5LwN9bKj3HpZ7fDs4GyA6eT';
    const [a, b] = await Promise.all([
      withSecretScope(async () => {
        registerSecret(KEY);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return activeRedactor().redact(`${KEY} ${other}`);
      }),
      withSecretScope(async () => {
        registerSecret(other);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return activeRedactor().redact(`${KEY} ${other}`);
      }),
    ]);
    expect(a).toBe(`${REDACTED} ${other}`);
    expect(b).toBe(`${KEY} ${REDACTED}`);
  });

  test('the logger made in a scope redacts every line, message and error alike, also for a key registered later', () => {
    const lines: string[] = [];
    withSecretScope(() => {
      const logger = createLogger('debug', { write: (line: string) => void lines.push(line) });
      registerSecret(KEY);
      logger.warn({ err: new Error(`echo ${KEY.slice(2, 12)}`), url: `/?api_key=${percent(KEY)}` }, `server said ${KEY}`);
    });
    const text = lines.join('');
    expect(text).toContain(`"msg":"server said ${REDACTED}"`);
    expect(text).toContain(`"url":"/?api_key=${REDACTED}"`);
    expect(text).toContain(`echo ${REDACTED}`);
    for (let i = 0; i + 6 <= KEY.length; i++) expect(text.toLowerCase()).not.toContain(KEY.slice(i, i + 6).toLowerCase());
  });

  test('a redactor taken before the key is registered redacts it afterwards (the logger is made first)', () => {
    withSecretScope(() => {
      const early = activeRedactor();
      registerSecret(KEY);
      expect(early.redact(KEY)).toBe(REDACTED);
    });
  });
});
