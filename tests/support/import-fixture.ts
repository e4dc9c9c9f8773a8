import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

/**
 * The WordPress export the import tests read (written by hand, see tests/fixtures/import/README.md)
 * and the one uploaded picture it names that an uploads folder holds. The picture is drawn here at
 * test time, so the repository carries no image file from anywhere else.
 */

export const STUDY_SITE_WXR = path.resolve(import.meta.dirname, '../fixtures/import/wordpress/study-site.wordpress.xml');

/** Where the export's attachment 101 (the featured image of "Newton's laws of motion") lives below wp-content/uploads. */
export const INCLINED_PLANE_PATH = '2019/03/inclined-plane.jpg';

const INCLINED_PLANE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
  <rect width="600" height="400" fill="#fdfaf3"/>
  <polygon points="60,340 540,340 540,100" fill="#d9c7a3" stroke="#5b4a2e" stroke-width="4"/>
  <g transform="rotate(-26.6 330 215)">
    <rect x="290" y="165" width="80" height="50" fill="#4f7cac" stroke="#1d3557" stroke-width="4"/>
  </g>
  <g stroke-width="6" fill="none" stroke-linecap="round">
    <line x1="330" y1="200" x2="330" y2="320" stroke="#c0392b"/>
    <line x1="330" y1="200" x2="285" y2="110" stroke="#27ae60"/>
    <line x1="330" y1="200" x2="250" y2="240" stroke="#8e44ad"/>
  </g>
  <path d="M130,340 A70,70 0 0,0 125,310" stroke="#5b4a2e" stroke-width="3" fill="none"/>
</svg>`;

/** The inclined-plane diagram as a 600×400 JPEG. */
export function drawInclinedPlane(): Promise<Buffer> {
  return sharp(Buffer.from(INCLINED_PLANE_SVG)).jpeg({ quality: 80 }).toBuffer();
}

/** A copy of the old site's wp-content/uploads in `dir`, holding the one picture the export has a file for. */
export async function writeStudyUploads(dir: string): Promise<string> {
  const file = path.join(dir, ...INCLINED_PLANE_PATH.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await drawInclinedPlane());
  return dir;
}

/** The Ghost 5 export the import tests read (written by hand, see tests/fixtures/import/README.md). */
export const STUDY_SITE_GHOST = path.resolve(import.meta.dirname, '../fixtures/import/ghost/study-site.ghost.json');

/** Where the Ghost export's one present picture lives below its `content/images`. */
export const LEAF_PATH = '2024/05/leaf.png';

/** A copy of the Ghost site's `content/images` in `dir`, holding the leaf picture (a green 64×48 PNG). */
export async function writeGhostImages(dir: string): Promise<string> {
  const file = path.join(dir, ...LEAF_PATH.split('/'));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const leaf = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect width="64" height="48" fill="#eef6e8"/><ellipse cx="32" cy="24" rx="26" ry="14" fill="#3c8d2f"/><line x1="8" y1="24" x2="56" y2="24" stroke="#1f4d18" stroke-width="2"/></svg>`;
  fs.writeFileSync(file, await sharp(Buffer.from(leaf)).png().toBuffer());
  return dir;
}
