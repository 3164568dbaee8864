import { describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { sayIt, type SaidView } from './said';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
// Intl keeps a number with its sign or unit (a no-break space: '5,3\u00a0%'); compared here as a plain space.
const say = (lang: string, said: SaidView) => sayIt(i18n.getFixedT(lang), said, 'the server’s English', lang).replace(/[\u00a0\u202f]/g, ' ');

describe('a check’s durations, written the reader’s way', () => {
  // The server sends milliseconds (it sent English text: '1.5 s', which a Spanish reader reads as 1,5 thousand).
  it('in ms under a second and in seconds from one, with the page’s decimal mark', () => {
    expect(say('es', { code: 'database.slow_write', params: { took: 1520, limit: 500 } })).toBe(
      'Integridad correcta; una escritura tardó 1,5 s (más de 500 ms).',
    );
    expect(say('en', { code: 'database.ok', params: { took: 4 } })).toBe('Integrity ok; a write took 4 ms.');
    expect(say('pt', { code: 'cron.timed_out', params: { limit: 120_000 } })).toMatch(/ 120 s\.$/);
    expect(say('pt', { code: 'smtp.ok', params: { host: 'mail.example.com:587', slow: 3400 } })).toMatch(/ 3,4 s\.$/);
    // A record stored when the server sent text shows it as it came.
    expect(say('es', { code: 'database.ok', params: { took: '4 ms' } })).toBe('Integridad correcta; una escritura tardó 4 ms.');
  });
});

describe('a check’s sizes and shares, written the reader’s way', () => {
  it('the disk: a decimal comma in Spanish and Portuguese, a point in English', () => {
    const disk = { code: 'disk.low', params: { free: 74.6 * GB, total: 252 * GB, percent: 0.053, limit: 0.1 } };
    expect(say('es', disk)).toBe('74,6 GB libres de 252,0 GB (5,3 %): por debajo de 10 %');
    expect(say('pt', disk)).toBe('74,6 GB livres de 252,0 GB (5,3%): abaixo de 10%');
    expect(say('en', disk)).toBe('74.6 GB free of 252.0 GB (5.3%): under 10%');
    // Under a gigabyte, whole megabytes.
    expect(say('es', { code: 'disk.ok', params: { free: 300 * MB, total: GB, percent: 0.29 } })).toBe('300 MB libres de 1,0 GB (29 %)');
  });

  it('the memory and each cache: megabytes, hit shares and lookups', () => {
    const memory: SaidView = {
      code: 'memory.caches_short',
      params: { rss: 312.4 * MB, heap: 8.26 * MB, limit: 0.5, cacheMb: 57 },
      parts: [
        { code: 'memory.cache', params: { cache: 'api', used: 24 * MB, max: 24 * MB, hit: 0.73, lookups: 12_000 } },
        { code: 'memory.cache_idle', params: { cache: 'pages', used: 0, max: 40 * MB } },
      ],
    };
    expect(say('es', memory)).toBe(
      'RSS 312 MB, montículo de JavaScript 8,3 MB. Una caché llena acierta en menos del 50 % de las consultas: un CACHE_MB mayor (ahora 57) respondería más desde la memoria. ' +
        'Cachés desde la última comprobación: respuestas de la API: 73 % de 12.000 consultas acertadas, 24 MB de 24 MB; páginas: sin consultas, 0,0 MB de 40 MB.',
    );
    expect(say('en', memory)).toContain('API answers: 73% of 12,000 lookups hit, 24 MB of 24 MB; pages: no lookups, 0.0 MB of 40 MB.');
  });

  it('a record stored when the server sent English text shows that text as it came', () => {
    expect(say('es', { code: 'disk.ok', params: { free: '9.0 GB', total: '100.0 GB', percent: '9.0 %' } })).toBe('9.0 GB libres de 100.0 GB (9.0 %)');
    // Another check's numbers are not sizes (an SMS limit is a count of messages).
    expect(say('en', { code: 'sms.low', params: { count: 49, limit: 50 } })).toBe('49 SMS left (under 50): top up the Textbelt key.');
  });
});
