/** Prefix of every line the in-host suite prints, so the code-server runner can tell it from workbench chatter. */
export const OUTPUT_TAG = '[e2e] ';
