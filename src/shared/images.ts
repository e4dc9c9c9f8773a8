/**
 * Uploaded images are stored as WebP in three widths named `<id>-w<width>.webp` under
 * /uploads/images/ (the image URL saved on a blog or slide is the widest one). Pages build a srcset
 * from that URL; any other image URL (demo images, external links) is used as it is.
 */
export const IMAGE_WIDTHS = [480, 960, 1600] as const;
const UPLOADED = /^(\/uploads\/images\/[a-z0-9]+)-w(\d+)\.webp$/;

export function uploadedImageUrl(id: string, width: number): string {
  return `/uploads/images/${id}-w${width}.webp`;
}

export function srcsetFor(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  const match = UPLOADED.exec(url);
  if (!match) return undefined;
  return IMAGE_WIDTHS.map((w) => `${match[1]}-w${w}.webp ${w}w`).join(', ');
}
