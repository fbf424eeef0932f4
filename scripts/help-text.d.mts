/** Types of scripts/help-text.mjs, for the tests. */
export declare const HELP_TEXT_PROPERTIES: ReadonlySet<string>;
export declare function leaveOutHelpText(code: string, name?: string): { code: string; count: number };
