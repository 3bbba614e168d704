// Reads a .vsix (a zip file) the way a gallery does: the central directory lists the entries, each entry's bytes are
// stored or deflated. Enough of the zip format (PKWARE APPNOTE 6.3, sections 4.3.7, 4.3.12, 4.3.16) for what vsce
// writes; zip64, encryption and multi-disk archives are refused with an error rather than misread.
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Bytes of the entry once inflated. */
  size: number;
  /** Bytes it takes in the archive. */
  compressedSize: number;
  /** Length of the extra fields in the central directory and in the local header (Open VSX refuses any). */
  centralExtra: number;
  localExtra: number;
  read(): Buffer;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export function readZip(zip: Buffer): ZipEntry[] {
  // The end-of-central-directory record is the last 22 bytes plus a comment of up to 65,535 bytes.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file: no end-of-central-directory record');
  const count = zip.readUInt16LE(eocd + 10);
  const cdOffset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw new Error('zip64 archives are not read here');
  const entries: ZipEntry[] = [];
  let at = cdOffset;
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error(`central directory entry ${n} at ${at} has a bad signature`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const centralExtra = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (flags & 1) throw new Error(`${name} is encrypted`);
    if (zip.readUInt32LE(localOffset) !== LOCAL) throw new Error(`${name}: bad local header signature`);
    const localExtra = zip.readUInt16LE(localOffset + 28);
    const dataStart = localOffset + 30 + zip.readUInt16LE(localOffset + 26) + localExtra;
    const read = (): Buffer => {
      const raw = zip.subarray(dataStart, dataStart + compressedSize);
      if (method === 0) return Buffer.from(raw);
      if (method === 8) return inflateRawSync(raw);
      throw new Error(`${name}: compression method ${method} is not read here`);
    };
    entries.push({ name, size, compressedSize, centralExtra, localExtra, read });
    at += 46 + nameLength + centralExtra + commentLength;
  }
  return entries;
}
