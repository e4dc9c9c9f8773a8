import { retryingResets } from './fetch-retry.ts';

globalThis.fetch = retryingResets(globalThis.fetch);
