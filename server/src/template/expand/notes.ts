// The notes of one expansion, de-duplicated per task, each with the scope it depends on (see ExpansionNoteScope).
import type { ExpansionNote, ExpansionNoteScope } from '../../../../common/protocol';

export class ExpansionNotes {
  readonly list: ExpansionNote[] = [];
  private readonly seen = new Set<string>();

  add(scope: ExpansionNoteScope, task: string | undefined, message: string): void {
    const k = `${task ?? ''}\u0000${message}`;
    if (this.seen.has(k)) return;
    this.seen.add(k);
    this.list.push(task ? { scope, task, message } : { scope, message });
  }
}
