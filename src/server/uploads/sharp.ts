import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | null = null;

/**
 * sharp, loaded on first use: libvips costs a process about 30 MB of memory once loaded, and a
 * serving process that never handles an image (most of them, most of the time) never needs it.
 */
export function loadSharp(): Promise<typeof Sharp> {
  return (loading ??= import('sharp').then((module) => module.default));
}
