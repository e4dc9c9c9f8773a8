import zlib from 'node:zlib';

/**
 * Demo images and PDFs are drawn here, so a first start needs no network and ships no binaries.
 * The tests and benchmarks draw their files with these too (through tests/support/files.ts).
 */

function crc32(buf: Buffer): number {
  return zlib.crc32(buf);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

type Rgb = [number, number, number];

/** A 960x540 PNG: a diagonal gradient between two colours with soft circles, unique per seed. */
export function drawDemoPng(from: Rgb, to: Rgb, seed: number, width = 960, height = 540): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  const circles = Array.from({ length: 5 }, (_, i) => {
    const r = ((seed * 7919 + i * 104729) % 1000) / 1000;
    const s = ((seed * 15485863 + i * 32452843) % 1000) / 1000;
    return { x: r * width, y: s * height, radius: 60 + ((seed + i * 37) % 120) };
  });
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      let light = 0;
      for (const c of circles) {
        const d = Math.hypot(x - c.x, y - c.y);
        if (d < c.radius) light += 0.18 * (1 - d / c.radius);
      }
      const at = row + 1 + x * 3;
      for (let k = 0; k < 3; k++) {
        const base = from[k]! + (to[k]! - from[k]!) * t;
        raw[at + k] = Math.min(255, Math.round(base + (255 - base) * light));
      }
    }
  }
  return encodePng(width, height, raw);
}

/**
 * An 8-bit truecolour PNG of the given size around raw scanlines (each a filter byte, then RGB).
 * The header states the size whatever the pixels hold, so tests can also build lying files with it.
 */
export function encodePng(width: number, height: number, raw: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function pdfText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
}

/** A one-page PDF with a title and a few lines, with a correct cross-reference table. */
export function drawDemoPdf(title: string, lines: string[]): Buffer {
  const content = [
    'BT /F1 22 Tf 72 760 Td',
    `(${pdfText(title)}) Tj`,
    '/F1 12 Tf 0 -36 Td',
    ...lines.map((line) => `(${pdfText(line)}) Tj 0 -18 Td`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
