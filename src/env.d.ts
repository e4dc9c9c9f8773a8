/// <reference types="astro/client" />
type AppContextForLocals = import('./server/app-context.ts').AppContext;

declare namespace App {
  interface Locals {
    app: AppContextForLocals;
  }
}
