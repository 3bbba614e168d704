// The language id of pSConfig templates (package.json `languages`).
export const LANGUAGE_ID = 'psconfig';
