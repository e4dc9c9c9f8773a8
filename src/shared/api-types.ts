/**
 * What every /api call answers (docs/product.md#the-api), shared by the server's DTO mapping, which
 * declares it returns these, and src/client/api.ts, which reads them. Types only: nothing here
 * reaches a bundle. Each part of the API has its module in api-types/.
 */
export type * from './api-types/answers.ts';
export type * from './api-types/comments.ts';
export type * from './api-types/blogs.ts';
export type * from './api-types/site-content.ts';
export type * from './api-types/users.ts';
export type * from './api-types/library.ts';
export type * from './api-types/import.ts';
