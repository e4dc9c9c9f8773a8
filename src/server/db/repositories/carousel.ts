import type { Db } from '../client.ts';

export interface Slide {
  id: number;
  title: string;
  image_url: string;
  altText: string;
}

const columns = ['id', 'title', 'image_url', 'alt_text as altText'] as const;

export function listSlides(db: Db): Promise<Slide[]> {
  return db.selectFrom('carousel_slides').select(columns).orderBy('id').execute();
}

export function findSlide(db: Db, id: number): Promise<Slide | undefined> {
  return db.selectFrom('carousel_slides').select(columns).where('id', '=', id).executeTakeFirst();
}

export function insertSlide(db: Db, input: { title: string; imageUrl: string; altText: string }): Promise<Slide> {
  return db
    .insertInto('carousel_slides')
    .values({ title: input.title, image_url: input.imageUrl, alt_text: input.altText, created_at: new Date().toISOString() })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function deleteSlide(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('carousel_slides').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
