// URI schemes of the extension's own read-only documents. The language side must know them (it never treats
// them as templates) and the preview creates them, so the constant lives here, below both.

/** URI scheme of the read-only documents that show one combination's pScheduler task. */
export const TASK_DOCUMENT_SCHEME = 'psconfig-task';
