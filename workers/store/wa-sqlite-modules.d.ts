// Type declarations wa-sqlite 2.0.6 does not ship (its index.d.ts lacks OPFSCoopSyncVFS and the
// async build's static `create`). Only what workers/store uses is declared.
declare module '@journeyapps/wa-sqlite/src/examples/OPFSCoopSyncVFS.js' {
  export class OPFSCoopSyncVFS {
    static create(name: string, module: unknown): Promise<OPFSCoopSyncVFS>;
    name: string;
    close(): void | Promise<void>;
  }
}

declare module '@journeyapps/wa-sqlite/dist/wa-sqlite-async.mjs' {
  export default function ModuleFactory(config?: object): Promise<unknown>;
}
