import { describe, expect, it } from 'vitest';
import { centsToInput, decimalPointText, formatCents, formatUsd, parseDollars, usdSign } from './money';

describe('money', () => {
  it('formats integer cents with exactly two decimals', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(1234)).toBe('12.34');
    expect(formatCents(2000)).toBe('20.00');
    expect(formatCents(-5)).toBe('-0.05');
    expect(formatCents(123456789)).toBe('1234567.89');
    expect(formatCents(123456789, { grouping: true })).toBe('1,234,567.89');
    expect(formatUsd(100000, 'en')).toBe('$1,000.00');
    expect(formatUsd(-250, 'en')).toBe('-$2.50');
    expect(centsToInput(1999, 'en')).toBe('19.99');
  });

  it('writes an amount to edit with the page’s decimal mark, read back exactly', () => {
    expect(centsToInput(1500, 'es')).toBe('15,00');
    expect(centsToInput(5, 'pt')).toBe('0,05');
    expect(centsToInput(123456789, 'es')).toBe('1234567,89'); // never grouped: '1.234.567,89' would be refused
    expect(centsToInput(123456789, 'en-US')).toBe('1234567.89');
    for (const lng of ['en', 'es', 'pt']) expect(parseDollars(centsToInput(100050, lng))).toBe(100050);
  });

  it('parses dollars typed by a person into exact cents', () => {
    expect(parseDollars('12')).toBe(1200);
    expect(parseDollars('12.3')).toBe(1230);
    expect(parseDollars('12.34')).toBe(1234);
    expect(parseDollars(' $1,000.50 ')).toBe(100050);
    expect(parseDollars('.5')).toBe(50);
    expect(parseDollars('0.10')).toBe(10);
    expect(parseDollars('0')).toBe(0);
    // the classic float traps come out exact
    expect(parseDollars('0.29')).toBe(29);
    expect(parseDollars('1.15')).toBe(115);
    expect(parseDollars('4.35')).toBe(435);
    expect(parseDollars('19.99')).toBe(1999);
  });

  it('refuses what it cannot read exactly instead of rounding', () => {
    for (const bad of ['', ' ', '.', 'abc', '12.345', '-1', '1e3', '12.3.4', '$', 'NaN', 'Infinity', ',5', '12,3,4']) expect(parseDollars(bad), bad).toBeNull();
  });

  // Spanish and Portuguese keyboards and habits write "150,00": the decimal comma is read as the
  // point, in every money field (the wallet's top-up reads amounts through the same helper). A
  // grouped amount written their way ("1.000,00") could be a thousand or a typo: refused, not guessed.
  it('reads a decimal comma, and refuses grouping written the Spanish and Portuguese way', () => {
    expect(parseDollars('150,00')).toBe(15000);
    expect(parseDollars('12,34')).toBe(1234);
    expect(parseDollars('1,00')).toBe(100);
    expect(parseDollars('12,5')).toBe(1250);
    expect(parseDollars(' $ 25,50 ')).toBe(2550);
    expect(parseDollars('1,000')).toBe(100000); // three digits after a comma: the English thousands separator, as before
    for (const bad of ['1.000,00', '1.000', '10.000,5', '1,000,00']) expect(parseDollars(bad), bad).toBeNull();
    expect(decimalPointText(' $ 20,50 ')).toBe('20.50');
    expect(decimalPointText('1.000,00')).toBe('1.000,00');
    expect(decimalPointText('1,000')).toBe('1,000');
  });

  it('gives the dollar sign as the page’s language writes it, and on which side', () => {
    expect(usdSign('en')).toEqual({ sign: '$', after: false });
    expect(usdSign('pt')).toEqual({ sign: 'US$', after: false });
    expect(usdSign('es')).toEqual({ sign: 'US$', after: true });
  });

  it('round-trips every cent value through text', () => {
    for (let c = 0; c < 100_000; c += 7) expect(parseDollars(formatCents(c))).toBe(c);
  });

  // Amounts follow the page's language, as dates and counts do: '1,234' reads as one point two in
  // Portuguese and Spanish. Each language's form is Intl's own for USD, exact to the cent.
  it('writes dollars in the page’s language', () => {
    const intl = (lng: string, n: number) => new Intl.NumberFormat(lng, { style: 'currency', currency: 'USD' }).format(n);
    expect(formatUsd(123456, 'pt')).toBe(intl('pt', 1234.56)); // "US$ 1.234,56"
    expect(formatUsd(123456, 'pt')).toMatch(/1\.234,56/);
    expect(formatUsd(123456, 'es')).toBe(intl('es', 1234.56));
    expect(formatUsd(123456, 'es')).toMatch(/1234,56/);
    expect(formatUsd(-5, 'pt')).toBe(intl('pt', -0.05));
    expect(formatUsd(123456789012, 'en')).toBe('$1,234,567,890.12');
    // every cent comes out as written, no float rounding on the way
    for (let c = 0; c < 20_000; c += 7) expect(formatUsd(c, 'en')).toBe(`$${formatCents(c, { grouping: true })}`);
  });
});
