/** The absolute path of the `.ts` require hook, for `node --require <path>` and cucumber's `requireModule`. */
export declare const path: string;
