// Placeholder until the archive command lands; replaced by its owner.
export async function runArchiveCommand(_args: string[]): Promise<number> {
  process.stderr.write('psconfig-tools archive: not built yet\n');
  return 2;
}
