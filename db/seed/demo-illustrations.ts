/**
 * The demo site's pictures: one line drawing per subject (a graph for Mathematics, a molecule for
 * Chemistry, a cell for Biology...) and one per carousel slide, as SVG. The seed turns them into
 * PNG with sharp. Shapes only, no text: the machine that seeds may have no fonts.
 */

export const ILLUSTRATION_WIDTH = 960;
export const ILLUSTRATION_HEIGHT = 540;

type Colours = [string, string];

const SUBJECT_COLOURS: Record<string, Colours> = {
  Mathematics: ['#1e40af', '#0ea5e9'],
  Physics: ['#4338ca', '#818cf8'],
  Chemistry: ['#047857', '#34d399'],
  Biology: ['#3f6212', '#84cc16'],
  History: ['#9a3412', '#f59e0b'],
  Geography: ['#0e7490', '#2dd4bf'],
  'Computer Science': ['#0f172a', '#475569'],
  Economics: ['#7c2d12', '#ea580c'],
  Literature: ['#831843', '#ec4899'],
  Languages: ['#6d28d9', '#c084fc'],
  'Exam Tips': ['#be123c', '#fb7185'],
  General: ['#334155', '#64748b'],
};

const line = 'fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"';
const thin = 'fill="none" stroke="#fff" stroke-opacity="0.35" stroke-width="3"';
const solid = 'fill="#fff"';
const soft = 'fill="#fff" fill-opacity="0.25"';

function polyline(points: Array<[number, number]>, style = line): string {
  return `<polyline points="${points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}" ${style}/>`;
}

function plot(f: (x: number) => number, from: number, to: number, steps = 60): Array<[number, number]> {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const x = from + ((to - from) * i) / steps;
    return [x, f(x)] as [number, number];
  });
}

function grid(x0: number, y0: number, x1: number, y1: number, step: number): string {
  const parts: string[] = [];
  for (let x = x0; x <= x1; x += step) parts.push(`<line x1="${x}" y1="${y0}" x2="${x}" y2="${y1}" ${thin}/>`);
  for (let y = y0; y <= y1; y += step) parts.push(`<line x1="${x0}" y1="${y}" x2="${x1}" y2="${y}" ${thin}/>`);
  return parts.join('');
}

function axes(x0: number, y0: number, x1: number, y1: number, ox: number, oy: number): string {
  return `<line x1="${x0}" y1="${oy}" x2="${x1}" y2="${oy}" ${line}/><line x1="${ox}" y1="${y0}" x2="${ox}" y2="${y1}" ${line}/>`;
}

const SUBJECT_DRAWINGS: Record<string, () => string> = {
  Mathematics: () =>
    grid(180, 90, 780, 450, 60) +
    axes(180, 90, 780, 450, 480, 390) +
    polyline(plot((x) => 390 - ((x - 480) / 60) ** 2 * 22, 280, 680)) +
    [300, 420, 540, 660].map((x) => `<circle cx="${x}" cy="${390 - ((x - 480) / 60) ** 2 * 22}" r="10" ${solid}/>`).join(''),
  Physics: () =>
    polyline(plot((x) => 300 + 90 * Math.sin((x - 120) / 55), 120, 560)) +
    `<line x1="700" y1="90" x2="790" y2="330" ${line}/><circle cx="790" cy="340" r="34" ${solid}/>` +
    `<path d="M640 90 H760" ${line}/><path d="M700 90 A240 240 0 0 0 610 310" ${thin} stroke-dasharray="12 12"/>` +
    `<path d="M160 460 H420 M390 436 L420 460 L390 484" ${line}/>`,
  Chemistry: () => {
    const hexagon = Array.from({ length: 7 }, (_, i) => {
      const a = (Math.PI / 3) * i + Math.PI / 6;
      return [360 + 120 * Math.cos(a), 270 + 120 * Math.sin(a)] as [number, number];
    });
    return (
      polyline(hexagon) +
      `<circle cx="360" cy="270" r="70" ${line}/>` +
      `<path d="M680 110 V230 L590 430 H830 L740 230 V110 Z" ${line}/><path d="M660 110 H760" ${line}/>` +
      `<path d="M615 380 H805 L830 430 H590 Z" ${soft}/>` +
      [0, 2, 4]
        .map(
          (i) =>
            `<circle cx="${360 + 190 * Math.cos((Math.PI / 3) * i + Math.PI / 6)}" cy="${270 + 190 * Math.sin((Math.PI / 3) * i + Math.PI / 6)}" r="18" ${solid}/>`,
        )
        .join('')
    );
  },
  Biology: () =>
    `<ellipse cx="400" cy="270" rx="250" ry="170" ${line}/><circle cx="430" cy="250" r="62" ${soft}/><circle cx="430" cy="250" r="62" ${line}/>` +
    `<ellipse cx="280" cy="330" rx="50" ry="22" ${line} transform="rotate(-20 280 330)"/><ellipse cx="540" cy="350" rx="46" ry="20" ${line} transform="rotate(15 540 350)"/>` +
    [260, 300, 520, 560].map((x, i) => `<circle cx="${x}" cy="${190 + i * 18}" r="8" ${solid}/>`).join('') +
    `<path d="M720 420 C700 300 760 170 880 130 C890 250 830 380 720 420 Z" ${line}/><path d="M720 420 L850 160" ${line}/>`,
  History: () =>
    `<line x1="120" y1="420" x2="840" y2="420" ${line}/>` +
    [180, 340, 500, 660, 800].map((x) => `<circle cx="${x}" cy="420" r="14" ${solid}/>`).join('') +
    `<path d="M330 150 L480 90 L630 150 Z" ${line}/><path d="M330 170 H630 M330 350 H630" ${line}/>` +
    [360, 430, 500, 570].map((x) => `<rect x="${x}" y="180" width="28" height="160" rx="6" ${soft}/>`).join(''),
  Geography: () =>
    `<circle cx="360" cy="270" r="180" ${line}/><ellipse cx="360" cy="270" rx="80" ry="180" ${line}/><line x1="360" y1="90" x2="360" y2="450" ${line}/>` +
    [200, 270, 340]
      .map(
        (y) =>
          `<path d="M${360 - Math.sqrt(180 ** 2 - (y - 270) ** 2)} ${y} H${360 + Math.sqrt(180 ** 2 - (y - 270) ** 2)}" ${thin}/>`,
      )
      .join('') +
    `<path d="M600 430 L700 250 L760 330 L820 200 L900 430 Z" ${soft}/><path d="M600 430 L700 250 L760 330 L820 200 L900 430" ${line}/>`,
  'Computer Science': () => {
    const nodes: Array<[number, number]> = [
      [480, 110],
      [330, 240],
      [630, 240],
      [250, 380],
      [410, 380],
      [560, 380],
      [710, 380],
    ];
    const edges: Array<[number, number]> = [
      [0, 1],
      [0, 2],
      [1, 3],
      [1, 4],
      [2, 5],
      [2, 6],
    ];
    return (
      edges
        .map(([a, b]) => `<line x1="${nodes[a]![0]}" y1="${nodes[a]![1]}" x2="${nodes[b]![0]}" y2="${nodes[b]![1]}" ${line}/>`)
        .join('') +
      nodes
        .map(
          ([x, y], i) =>
            `<circle cx="${x}" cy="${y}" r="34" ${i === 0 ? solid : soft}/><circle cx="${x}" cy="${y}" r="34" ${line}/>`,
        )
        .join('') +
      `<path d="M140 130 L90 180 L140 230 M820 130 L870 180 L820 230 M800 110 L760 250" ${line}/>`
    );
  },
  Economics: () =>
    axes(200, 90, 760, 450, 200, 450) +
    polyline(plot((x) => 120 + (x - 240) * 0.62, 240, 720)) +
    polyline(plot((x) => 420 - (x - 240) * 0.62, 240, 720)) +
    `<circle cx="480" cy="270" r="14" ${solid}/><path d="M480 270 V450 M200 270 H480" ${thin} stroke-dasharray="10 10"/>` +
    [0, 1, 2]
      .map((i) => `<rect x="${800 + i * 40}" y="${380 - i * 60}" width="28" height="${70 + i * 60}" rx="4" ${soft}/>`)
      .join(''),
  Literature: () =>
    `<path d="M480 150 C400 110 260 110 180 140 V420 C260 390 400 390 480 430 C560 390 700 390 780 420 V140 C700 110 560 110 480 150 Z" ${line}/>` +
    `<line x1="480" y1="150" x2="480" y2="430" ${line}/>` +
    [190, 230, 270, 310, 350]
      .map(
        (y) =>
          `<path d="M230 ${y} C300 ${y - 14} 380 ${y - 14} 440 ${y}" ${thin}/><path d="M520 ${y} C580 ${y - 14} 660 ${y - 14} 730 ${y}" ${thin}/>`,
      )
      .join('') +
    `<path d="M820 90 C760 160 720 260 700 330 L690 380 L720 340 C790 280 840 180 820 90 Z" ${soft}/>`,
  Languages: () =>
    `<path d="M140 120 H520 A30 30 0 0 1 550 150 V300 A30 30 0 0 1 520 330 H300 L220 400 L240 330 H140 A30 30 0 0 1 110 300 V150 A30 30 0 0 1 140 120 Z" ${line}/>` +
    `<path d="M470 220 H820 A30 30 0 0 1 850 250 V390 A30 30 0 0 1 820 420 H760 L780 480 L700 420 H470 A30 30 0 0 1 440 390 V250 A30 30 0 0 1 470 220 Z" ${soft}/>` +
    [170, 220, 270].map((y, i) => `<line x1="170" y1="${y}" x2="${480 - i * 80}" y2="${y}" ${line}/>`).join('') +
    [290, 340].map((y, i) => `<line x1="520" y1="${y + 20}" x2="${790 - i * 90}" y2="${y + 20}" ${line}/>`).join(''),
  'Exam Tips': () =>
    `<rect x="170" y="90" width="330" height="380" rx="24" ${line}/>` +
    [160, 250, 340]
      .map(
        (y) =>
          `<path d="M210 ${y} L240 ${y + 30} L290 ${y - 25}" ${line}/><line x1="320" y1="${y + 8}" x2="460" y2="${y + 8}" ${thin}/>`,
      )
      .join('') +
    `<circle cx="700" cy="280" r="150" ${line}/><path d="M700 170 V280 L780 330" ${line}/>` +
    [0, 1, 2, 3]
      .map(
        (i) =>
          `<circle cx="${700 + 125 * Math.cos((Math.PI / 2) * i)}" cy="${280 + 125 * Math.sin((Math.PI / 2) * i)}" r="8" ${solid}/>`,
      )
      .join(''),
  General: () =>
    [0, 1, 2]
      .map((i) => {
        const box = `x="${280 + i * 20}" y="${340 - i * 90}" width="${400 - i * 40}" height="70" rx="10"`;
        return (i === 1 ? `<rect ${box} ${soft}/>` : '') + `<rect ${box} ${line}/>`;
      })
      .join('') + `<line x1="200" y1="420" x2="760" y2="420" ${line}/>`,
};

const SLIDE_DRAWINGS: Array<{ colours: Colours; draw: () => string }> = [
  {
    // Revision tips: a week planner with ticked days.
    colours: ['#1e3a8a', '#3b82f6'],
    draw: () =>
      `<rect x="220" y="110" width="520" height="340" rx="24" ${line}/><line x1="220" y1="180" x2="740" y2="180" ${line}/>` +
      Array.from({ length: 14 }, (_, i) => {
        const x = 250 + (i % 7) * 70;
        const y = 210 + Math.floor(i / 7) * 110;
        return i % 3 === 2
          ? `<rect x="${x}" y="${y}" width="50" height="70" rx="8" ${thin}/>`
          : `<path d="M${x + 8} ${y + 36} L${x + 22} ${y + 52} L${x + 44} ${y + 18}" ${line}/>`;
      }).join(''),
  },
  {
    // PDF notes: a stack of pages with a download arrow.
    colours: ['#6d28d9', '#db2777'],
    draw: () =>
      `<rect x="300" y="140" width="260" height="320" rx="16" ${soft}/><rect x="340" y="100" width="260" height="320" rx="16" ${line}/>` +
      [160, 200, 240, 280, 320]
        .map((y, i) => `<line x1="380" y1="${y}" x2="${560 - (i % 2) * 50}" y2="${y}" ${thin}/>`)
        .join('') +
      `<path d="M720 160 V360 M660 300 L720 360 L780 300 M650 420 H790" ${line}/>`,
  },
  {
    // Video lessons: a screen with a play button.
    colours: ['#047857', '#22c55e'],
    draw: () =>
      `<rect x="200" y="100" width="560" height="320" rx="24" ${line}/><path d="M440 200 V320 L540 260 Z" ${solid}/>` +
      `<line x1="330" y1="470" x2="630" y2="470" ${line}/><line x1="480" y1="420" x2="480" y2="470" ${line}/>`,
  },
];

function svg([from, to]: Colours, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${ILLUSTRATION_WIDTH}" height="${ILLUSTRATION_HEIGHT}" viewBox="0 0 ${ILLUSTRATION_WIDTH} ${ILLUSTRATION_HEIGHT}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#bg)"/>${body}</svg>`
  );
}

/** The subjects with a drawing of their own; any other category gets the General one (books). */
export const ILLUSTRATED_SUBJECTS = Object.keys(SUBJECT_DRAWINGS);

export function subjectIllustration(subject: string): string {
  const key = subject in SUBJECT_DRAWINGS ? subject : 'General';
  return svg(SUBJECT_COLOURS[key]!, SUBJECT_DRAWINGS[key]!());
}

export const SLIDE_COUNT = SLIDE_DRAWINGS.length;

/**
 * A slide's picture. The carousel crops it to 16:6 on wide screens and shows it whole at 16:9 on
 * phones, and writes the caption bottom left: the drawing is kept small, in the middle band and
 * right of centre, so every crop shows all of it clear of the caption.
 */
export function slideIllustration(index: number): string {
  const slide = SLIDE_DRAWINGS[index % SLIDE_DRAWINGS.length]!;
  return svg(slide.colours, `<g transform="translate(600 255) scale(0.6) translate(-480 -270)">${slide.draw()}</g>`);
}
