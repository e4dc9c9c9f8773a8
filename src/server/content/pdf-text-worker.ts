// Reads one PDF's text off the serving thread; the parent stops it at the time limit.
import { parentPort, workerData } from 'node:worker_threads';
import { extractPdfTextInProcess, type PDF_TEXT_LIMITS } from './pdf-text.ts';

const { file, limits } = workerData as { file: string; limits: typeof PDF_TEXT_LIMITS };
parentPort!.postMessage(await extractPdfTextInProcess(file, limits));
