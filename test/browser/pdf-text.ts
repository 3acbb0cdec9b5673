import { inflateSync } from 'node:zlib';

/**
 * The text of a PDF Chromium printed (`page.pdf()`), for tests to read what a printed page says: each
 * FlateDecode stream inflated, the fonts' ToUnicode maps (bfchar, bfrange) merged, and every text block
 * (BT … ET) of the content streams decoded from its two-byte glyph codes, one line per block. Enough
 * for Chromium's own output (Identity-H fonts), not a general PDF reader.
 */
export const pdfText = (pdf: Buffer): string => {
  const streams: string[] = [];
  const raw = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    try {
      streams.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // Not deflated (an image, a font program): no text here.
    }
    re.lastIndex = end + 'endstream'.length;
  }
  const map = new Map<number, string>();
  const hex = (h: string) => Number.parseInt(h, 16);
  const utf16 = (h: string) =>
    String.fromCharCode(...(h.match(/.{4}/g) ?? []).map((x) => Number.parseInt(x, 16)));
  for (const s of streams) {
    for (const block of s.match(/beginbfchar([\s\S]*?)endbfchar/g) ?? [])
      for (const [, a, b] of block.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
        map.set(hex(a!), utf16(b!));
    for (const block of s.match(/beginbfrange([\s\S]*?)endbfrange/g) ?? [])
      for (const [, a, b, c] of block.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
        for (let g = hex(a!); g <= hex(b!); g++) map.set(g, String.fromCharCode(hex(c!) + g - hex(a!)));
  }
  const lines: string[] = [];
  for (const s of streams)
    for (const [block] of s.matchAll(/BT[\s\S]*?ET/g)) {
      const codes = [...block.matchAll(/<([0-9A-Fa-f]+)>/g)].map((m) => m[1]!);
      const text = codes
        .map((h) => (h.match(/.{4}/g) ?? []).map((g) => map.get(hex(g)) ?? '').join(''))
        .join('');
      if (text.trim()) lines.push(text);
    }
  return lines.join('\n');
};
