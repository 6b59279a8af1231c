/** The absolute path of the `.ts` require hook, for `node --require <path>` and cucumber's `requireModule`. */
export declare const path: string;
/** Where the compiled JavaScript of `source` (the text of the .ts file `filename`) is cached. */
export declare function cachedPath(source: string, filename: string): string;
