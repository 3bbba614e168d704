// One-line summary of a definition for completion details and the outline: its type, address or archiver.
import { propertyValue, stringValue, type JsonNode } from '../parse';

export function summaryOf(value: JsonNode | undefined): string | undefined {
  if (value?.type !== 'object') return undefined;
  for (const key of ['type', 'address', 'archiver', 'context', 'test', 'group']) {
    const s = stringValue(propertyValue(value, key));
    if (s !== undefined) return key === 'type' ? s : `${key}: ${s}`;
  }
  const ds = stringValue(propertyValue(propertyValue(value, 'data-source'), 'type'));
  return ds === undefined ? undefined : `data-source: ${ds}`;
}
